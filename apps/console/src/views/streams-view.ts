import { ERROR_CATEGORIES, PROVIDERS } from '@llm-stream/contract';
import type { StreamRecord } from '@llm-stream/contract';
import type { AuditApi } from '../api.js';
import { dateTime, el, replace } from '../dom.js';
import { refusal } from './sign-in.js';
import { statusChart } from './status-chart.js';

const STATUSES = ['running', 'completed', 'failed', 'interrupted'] as const;
const FILTERS = ['status', 'provider', 'model', 'error_category', 'from', 'to', 'trace_id'] as const;
const LIVE_REFRESH_MS = 5_000;
const HOUR_MS = 3_600_000;

/** `datetime-local` values are local times; the API takes ms since the epoch. */
const toMs = (local: string): string => (local === '' ? '' : String(new Date(local).getTime()));
const toLocal = (ms: string): string => {
  if (ms === '') return '';
  const date = new Date(Number(ms));
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * The streams list: filters kept in the URL (`#/streams?status=failed`), newest first, a page at a time,
 * refreshed every 5 s while "live" is on (first page only, so paging is never pulled from under the reader).
 * Returns a stop function for the router.
 */
export function streamsView(root: HTMLElement, api: AuditApi, query: URLSearchParams): () => void {
  const select = (name: string, label: string, options: readonly string[]): HTMLSelectElement => {
    const node = el('select', { id: `filter-${name}`, name, ariaLabel: label }, el('option', { value: '' }, `any ${label}`), ...options.map((option) => el('option', { value: option }, option)));
    node.value = query.get(name) ?? '';
    return node;
  };
  const input = (name: string, label: string, type: string, value: string): HTMLInputElement => el('input', { id: `filter-${name}`, name, type, ariaLabel: label, placeholder: label, value });
  const controls: Record<(typeof FILTERS)[number], HTMLInputElement | HTMLSelectElement> = {
    status: select('status', 'status', STATUSES),
    provider: select('provider', 'provider', PROVIDERS),
    model: input('model', 'model', 'text', query.get('model') ?? ''),
    error_category: select('error_category', 'error category', ERROR_CATEGORIES),
    from: input('from', 'from', 'datetime-local', toLocal(query.get('from') ?? '')),
    to: input('to', 'to', 'datetime-local', toLocal(query.get('to') ?? '')),
    trace_id: input('trace_id', 'trace id', 'text', query.get('trace_id') ?? ''),
  };
  const live = el('input', { id: 'live', type: 'checkbox', ariaLabel: 'live refresh' });
  live.checked = query.get('live') !== '0';
  const form = el(
    'form',
    {
      className: 'filters',
      onSubmit: (event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        for (const name of FILTERS) {
          const raw = controls[name].value.trim();
          const value = name === 'from' || name === 'to' ? toMs(raw) : raw;
          if (value !== '') next.set(name, value);
        }
        if (!live.checked) next.set('live', '0');
        location.hash = `#/streams?${next.toString()}`;
      },
    },
    ...FILTERS.map((name) => controls[name]),
    el('label', { className: 'live', forId: 'live' }, live, ' live'),
    el('button', { type: 'submit', id: 'apply-filters' }, 'Filter'),
  );
  const chartBox = el('div', { className: 'chart-slot', id: 'chart' });
  const status = el('p', { className: 'status-line', role: 'status' }, 'Loading…');
  const body = el('tbody');
  const table = el(
    'table',
    { className: 'streams', id: 'streams' },
    el('thead', {}, el('tr', {}, ...['started', 'status', 'provider', 'model', 'error', 'events', 'unknown', 'stream'].map((name) => el('th', {}, name)))),
    body,
  );
  const cursors: (string | null)[] = [null];
  const older = el('button', { type: 'button', id: 'older' }, 'Older →');
  const newer = el('button', { type: 'button', id: 'newer' }, '← Newer');
  replace(root, el('h1', {}, 'Streams'), form, chartBox, status, el('div', { className: 'table-box' }, table), el('div', { className: 'pager' }, newer, older));

  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value !== null && value !== '') filters.set(name, value);
  }
  let page = 0;
  let next: string | null = null;
  const load = async (): Promise<void> => {
    const params = new URLSearchParams(filters);
    params.set('limit', '25');
    const cursor = cursors[page] ?? null;
    if (cursor !== null) params.set('cursor', cursor);
    try {
      const list = await api.streams(params);
      next = list.next_cursor;
      replace(body, ...list.streams.map(row));
      replace(status, `${String(list.streams.length)} streams on page ${String(page + 1)}${live.checked && page === 0 ? ' · live' : ''} · ${dateTime(Date.now())}`);
      older.disabled = next === null;
      newer.disabled = page === 0;
    } catch (error) {
      replace(status, refusal(error));
    }
  };
  const loadChart = async (): Promise<void> => {
    const to = Number(filters.get('to') ?? Date.now() + 1);
    const from = Number(filters.get('from') ?? to - HOUR_MS);
    try {
      replace(chartBox, statusChart(await api.timeline(from, to, 60)));
    } catch (error) {
      replace(chartBox, el('p', { className: 'error' }, refusal(error)));
    }
  };
  older.addEventListener('click', () => {
    if (next === null) return;
    cursors[page + 1] = next;
    page += 1;
    void load();
  });
  newer.addEventListener('click', () => {
    if (page === 0) return;
    page -= 1;
    void load();
  });
  void load();
  void loadChart();
  const timer = setInterval(() => {
    if (!live.checked || page !== 0) return;
    void load();
    void loadChart();
  }, LIVE_REFRESH_MS);
  return () => {
    clearInterval(timer);
  };
}

/** A row opens its stream on click or Enter (rows are in the tab order). */
function row(stream: StreamRecord): HTMLTableRowElement {
  const open = (): void => {
    location.hash = `#/stream/${stream.stream_id}`;
  };
  return el(
    'tr',
    {
      tabIndex: 0,
      className: `row ${stream.status}`,
      dataset: { streamId: stream.stream_id },
      onClick: open,
      onKeyDown: (event) => {
        if (event.key === 'Enter') open();
      },
    },
    el('td', {}, dateTime(stream.started_at)),
    el('td', {}, el('span', { className: `badge ${stream.status}` }, stream.status)),
    el('td', {}, stream.provider ?? '—'),
    el('td', {}, stream.model ?? '—'),
    el('td', {}, stream.error_category ?? ''),
    el('td', { className: 'num' }, stream.event_count),
    el('td', { className: 'num' }, stream.unknown_event_count),
    el('td', { className: 'mono' }, stream.stream_id),
  );
}
