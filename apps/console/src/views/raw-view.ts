import type { RawTraceEntry } from '@llm-stream/contract';
import { clock, el, replace } from '../dom.js';
import { scrollToShow, visibleRows } from '../visible-rows.js';

/** Every row has this height (CSS `.raw-row`), so which rows are in view is arithmetic, not layout. */
const ROW_HEIGHT = 22;
const OVERSCAN = 8;

/**
 * The raw records beside the events each produced, one row per record, virtualised: only the rows in view are in
 * the DOM (a 5,000-record trace draws ~30), spacers above and below take the others' height, and the box has a
 * fixed height, so nothing on the page moves while a live stream grows. A row shows one line; the selected row
 * (click, or the arrow keys, Page Up/Down, Home and End in the focused table) is shown whole below it: the
 * frame's exact text and every event it produced.
 */
export class RawTable {
  readonly element: HTMLElement;
  private readonly box: HTMLElement;
  private readonly body = el('tbody');
  private readonly topSpacer = spacerRow();
  private readonly bottomSpacer = spacerRow();
  private readonly counter = el('span', { className: 'raw-count', id: 'raw-count' });
  private readonly jumpToCut = el('button', { type: 'button', id: 'show-cut', onClick: () => { this.showCut(); } }, 'Show the frame where it was cut');
  private readonly detail = el('div', { className: 'raw-detail', id: 'raw-detail', role: 'region', ariaLabel: 'the selected record' });
  private records: readonly RawTraceEntry[] = [];
  private selected: number | null = null;
  /** What the rows on screen were drawn for (window, row count, selection): a redraw only when it changes. */
  private drawnFor = '';
  private frame: number | null = null;

  constructor() {
    this.box = el(
      'div',
      { className: 'raw-box', id: 'raw', tabIndex: 0, role: 'grid', ariaLabel: 'raw records: arrow keys move the selection', onKeyDown: (event) => { this.onKey(event); } },
      el('table', { className: 'raw' }, el('thead', {}, el('tr', {}, el('th', { className: 'c-seq' }, 'raw'), el('th', { className: 'c-time' }, 'arrived'), el('th', { className: 'c-kind' }, 'kind'), el('th', {}, 'frame or record'), el('th', { className: 'c-events' }, 'events produced'))), this.body),
    );
    this.box.addEventListener('scroll', () => { this.schedule(); }, { passive: true });
    this.body.addEventListener('click', (event) => {
      const row = (event.target as Element | null)?.closest('tr.raw-row');
      const index = row instanceof HTMLElement ? Number(row.dataset['index']) : Number.NaN;
      if (Number.isInteger(index)) this.select(index, false);
    });
    this.jumpToCut.hidden = true;
    replace(this.detail, el('p', { className: 'hint' }, 'Select a row (click it, or the arrow keys in the table) to see its whole frame and the events it produced.'));
    this.element = el('div', { className: 'raw-view' }, el('div', { className: 'raw-toolbar' }, this.counter, this.jumpToCut), this.box, this.detail);
  }

  /**
   * The records so far, in LLM_RAW order (earlier ones never change). A view that was at the end keeps
   * following the end as records arrive.
   */
  update(records: readonly RawTraceEntry[]): void {
    const following = this.records.length > 0 && this.box.scrollTop + this.box.clientHeight >= this.box.scrollHeight - ROW_HEIGHT;
    this.records = records;
    this.box.dataset['records'] = String(records.length);
    this.box.setAttribute('aria-rowcount', String(records.length + 1));
    replace(this.counter, `${String(records.length)} records`);
    this.jumpToCut.hidden = this.cutIndex() === null;
    this.draw();
    if (following) {
      this.box.scrollTop = this.box.scrollHeight;
      this.draw();
    }
  }

  /** Scrolls to the frame the stream was cut in, selects it and shows it whole; false when there is none. */
  showCut(): boolean {
    const index = this.cutIndex();
    if (index === null) return false;
    this.select(index, true);
    return true;
  }

  private cutIndex(): number | null {
    for (let index = this.records.length - 1; index >= 0; index -= 1) if (this.records[index]?.kind === 'frame.partial') return index;
    return null;
  }

  private select(index: number, reveal: boolean): void {
    if (this.records.length === 0) return;
    const row = Math.min(this.records.length - 1, Math.max(0, index));
    this.selected = row;
    const entry = this.records[row];
    if (entry !== undefined) replace(this.detail, recordDetail(entry));
    if (reveal) this.box.scrollTop = scrollToShow(row, { scrollTop: this.box.scrollTop, height: this.rowsHeight(), rowHeight: ROW_HEIGHT });
    this.draw();
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.rowsHeight() / ROW_HEIGHT) - 1);
    const current = this.selected ?? -1;
    const moves: Readonly<Record<string, number>> = { ArrowDown: current + 1, ArrowUp: current - 1, PageDown: current + page, PageUp: current - page, Home: 0, End: this.records.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    this.select(target, true);
  }

  /** The height rows have under the sticky header. */
  private rowsHeight(): number {
    return Math.max(ROW_HEIGHT, this.box.clientHeight - ROW_HEIGHT);
  }

  private schedule(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
    });
  }

  /** Redraws the rows in view when the window, the row count or the selection changed. */
  private draw(): void {
    const scrollTop = Math.max(0, this.box.scrollTop - ROW_HEIGHT);
    const { first, end } = visibleRows({ scrollTop, height: this.box.clientHeight, rowHeight: ROW_HEIGHT, rows: this.records.length, overscan: OVERSCAN });
    const drawnFor = `${String(first)}:${String(end)}:${String(this.records.length)}:${String(this.selected)}`;
    if (drawnFor === this.drawnFor) return;
    this.drawnFor = drawnFor;
    this.topSpacer.style.height = `${String(first * ROW_HEIGHT)}px`;
    this.bottomSpacer.style.height = `${String((this.records.length - end) * ROW_HEIGHT)}px`;
    const fragment = document.createDocumentFragment();
    fragment.appendChild(this.topSpacer);
    for (let index = first; index < end; index += 1) {
      const entry = this.records[index];
      if (entry !== undefined) fragment.appendChild(rawRow(entry, index, index === this.selected));
    }
    fragment.appendChild(this.bottomSpacer);
    replace(this.body, fragment);
  }
}

function spacerRow(): HTMLTableRowElement {
  const row = el('tr', { className: 'spacer' }, el('td', {}));
  row.setAttribute('aria-hidden', 'true');
  (row.firstChild as HTMLTableCellElement).colSpan = 5;
  return row;
}

function endingOf(entry: RawTraceEntry): string {
  return entry.record?.kind === 'attempt.end' ? ` (${entry.record.reason})` : '';
}

function frameText(entry: RawTraceEntry): string {
  return entry.text ?? JSON.stringify(entry.record ?? {});
}

function rawRow(entry: RawTraceEntry, index: number, selected: boolean): HTMLTableRowElement {
  const cut = entry.kind === 'frame.partial';
  const row = el(
    'tr',
    { className: `raw-row${cut ? ' cut' : ''}${selected ? ' selected' : ''}`, role: 'row', dataset: { rawSeq: String(entry.raw_seq), kind: entry.kind, index: String(index) } },
    el('td', { className: 'num' }, entry.raw_seq),
    el('td', {}, clock(entry.ts)),
    el('td', {}, entry.kind + endingOf(entry), cut ? el('strong', { className: 'cut-mark' }, ' cut here: the frame was never completed') : null, entry.redacted ? ' (redacted)' : null),
    el('td', { className: 'frame mono' }, frameText(entry)),
    el('td', {}, entry.events.map((event) => `#${String(event.seq)} ${event.type}`).join(', ')),
  );
  row.setAttribute('aria-rowindex', String(index + 2));
  row.setAttribute('aria-selected', String(selected));
  return row;
}

/** The selected record whole: the frame's exact text (or the record's fields) and every event it produced. */
function recordDetail(entry: RawTraceEntry): HTMLElement {
  const cut = entry.kind === 'frame.partial';
  return el(
    'div',
    {},
    el(
      'p',
      { className: 'detail-head' },
      `raw ${String(entry.raw_seq)} · ${entry.kind}${endingOf(entry)}${entry.attempt === null ? '' : ` · attempt ${String(entry.attempt)}`} · arrived ${clock(entry.ts)}${entry.redacted ? ' · redacted' : ''}`,
      cut ? el('strong', { className: 'cut-mark' }, 'Cut here: the frame was never completed; this is as far as it arrived.') : null,
    ),
    el('pre', { className: 'frame-whole' }, frameText(entry)),
    el('ul', { className: 'produced' }, ...(entry.events.length === 0 ? [el('li', {}, 'no events')] : entry.events.map((event) => el('li', {}, `#${String(event.seq)} ${event.type}`)))),
  );
}
