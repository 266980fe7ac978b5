import type { StatsTimeline } from '@llm-stream/contract';
import { dateTime, el, svg } from '../dom.js';

const WIDTH = 640;
const HEIGHT = 120;
const STATUS_CLASSES = ['completed', 'failed', 'interrupted', 'running'] as const;

/**
 * Stacked bars: streams per bucket by status, and below them the error categories of the same buckets as a
 * table-like legend. Plain SVG built node by node (no chart library); a fixed size, so a refresh never moves
 * the page.
 */
export function statusChart(timeline: StatsTimeline): HTMLElement {
  const max = Math.max(1, ...timeline.buckets.map((bucket) => bucket.streams));
  const barWidth = WIDTH / Math.max(1, timeline.buckets.length);
  const chart = svg('svg', { viewBox: `0 0 ${String(WIDTH)} ${String(HEIGHT)}`, width: WIDTH, height: HEIGHT, role: 'img', 'aria-label': 'streams by status over time', class: 'chart' });
  timeline.buckets.forEach((bucket, index) => {
    let y = HEIGHT;
    for (const status of STATUS_CLASSES) {
      const count = bucket.by_status[status] ?? 0;
      if (count === 0) continue;
      const height = (count / max) * (HEIGHT - 4);
      y -= height;
      chart.appendChild(
        svg('rect', { x: index * barWidth, y, width: Math.max(1, barWidth - 1), height, class: `bar ${status}` }, svg('title', {}, `${dateTime(bucket.start)}: ${String(count)} ${status}`)),
      );
    }
  });
  const categories = new Map<string, number>();
  for (const bucket of timeline.buckets) for (const [category, count] of Object.entries(bucket.by_error_category)) categories.set(category, (categories.get(category) ?? 0) + count);
  const errorRows = [...categories.entries()].sort((a, b) => b[1] - a[1]);
  const errorChart = svg('svg', { viewBox: `0 0 ${String(WIDTH)} 40`, width: WIDTH, height: 40, role: 'img', 'aria-label': 'errors by category over time', class: 'chart errors' });
  const errorMax = Math.max(1, ...timeline.buckets.map((bucket) => Object.values(bucket.by_error_category).reduce((sum, count) => sum + count, 0)));
  timeline.buckets.forEach((bucket, index) => {
    let y = 40;
    for (const [category] of errorRows) {
      const count = bucket.by_error_category[category] ?? 0;
      if (count === 0) continue;
      const height = (count / errorMax) * 36;
      y -= height;
      errorChart.appendChild(svg('rect', { x: index * barWidth, y, width: Math.max(1, barWidth - 1), height, class: `bar error-${String(errorRows.findIndex(([name]) => name === category) % 6)}` }, svg('title', {}, `${dateTime(bucket.start)}: ${String(count)} ${category}`)));
    }
  });
  return el(
    'figure',
    { className: 'chart-box' },
    chart,
    errorChart,
    el(
      'figcaption',
      {},
      `Streams started ${dateTime(timeline.from)} – ${dateTime(timeline.to)}, ${String(timeline.buckets.length)} buckets of ${String(Math.round(timeline.bucket_ms / 1000))} s. `,
      ...STATUS_CLASSES.map((status) => el('span', { className: `legend ${status}` }, `${status} ${String(timeline.buckets.reduce((sum, bucket) => sum + (bucket.by_status[status] ?? 0), 0))} `)),
      errorRows.length === 0 ? 'No errors.' : `Errors: ${errorRows.map(([category, count]) => `${category} ${String(count)}`).join(', ')}.`,
    ),
  );
}
