import type { RawTraceEntry } from '@llm-stream/contract';
import { clock, el } from '../dom.js';

/**
 * The raw records beside the events each produced, one row per record. Rows are appended as a live stream
 * grows (never re-rendered), inside a box of fixed height, so nothing on the page moves while it grows.
 */
export class RawTable {
  readonly element: HTMLElement;
  private readonly body = el('tbody');
  private rendered = 0;

  constructor() {
    this.element = el(
      'div',
      { className: 'raw-box', id: 'raw' },
      el('table', { className: 'raw' }, el('thead', {}, el('tr', {}, el('th', {}, 'raw'), el('th', {}, 'arrived'), el('th', {}, 'kind'), el('th', {}, 'frame or record'), el('th', {}, 'events produced'))), this.body),
    );
  }

  /** Appends the records not shown yet (the API returns them in LLM_RAW order, so earlier rows never change). */
  update(records: readonly RawTraceEntry[]): void {
    const fragment = document.createDocumentFragment();
    for (const entry of records.slice(this.rendered)) fragment.appendChild(rawRow(entry));
    this.rendered = records.length;
    this.body.appendChild(fragment);
  }
}

function rawRow(entry: RawTraceEntry): HTMLTableRowElement {
  const cut = entry.kind === 'frame.partial';
  const ending = entry.record?.kind === 'attempt.end' ? ` (${entry.record.reason})` : '';
  return el(
    'tr',
    { className: `raw-row ${cut ? 'cut' : ''}`, dataset: { rawSeq: String(entry.raw_seq), kind: entry.kind } },
    el('td', { className: 'num' }, entry.raw_seq),
    el('td', {}, clock(entry.ts)),
    el('td', {}, entry.kind + ending, cut ? el('strong', { className: 'cut-mark' }, ' cut here: the frame was never completed') : null, entry.redacted ? ' (redacted)' : null),
    el('td', {}, el('pre', { className: 'frame' }, entry.text ?? JSON.stringify(entry.record ?? {}))),
    el('td', {}, el('ul', { className: 'produced' }, ...entry.events.map((event) => el('li', {}, `#${String(event.seq)} ${event.type}`)))),
  );
}
