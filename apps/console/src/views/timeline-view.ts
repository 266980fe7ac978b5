import { el, svg } from '../dom.js';
import type { TimelineModel } from '../timeline-model.js';

const WIDTH = 1000;
const LANE = 30;
const LANES = ['frame', 'event', 'stored'] as const;
const LANE_LABELS: Readonly<Record<(typeof LANES)[number], string>> = { frame: 'frames arrived', event: 'events produced', stored: 'events stored (JetStream)' };

/** The mark's colour class: what a reader looks for first (heartbeats, warnings, the end, a cut). */
function category(kind: string): string {
  if (kind.includes('heartbeat')) return 'heartbeat';
  if (kind === 'stream.warning') return 'warning';
  if (kind === 'stream.done' || kind === 'stream.error' || kind === 'attempt.end') return 'terminal';
  if (kind === 'frame.partial') return 'cut';
  return 'plain';
}

/**
 * Three lanes on one time axis. Each lane's marks of one category are one SVG path (a 5,000-event stream is a
 * handful of nodes, not 15,000), gaps are shaded; the box has a fixed size, so a live stream's growth redraws
 * inside it without moving anything around it.
 */
export function timelineView(model: TimelineModel): SVGElement {
  const span = model.end - model.start;
  const x = (at: number): number => ((at - model.start) / span) * (WIDTH - 140) + 140;
  const root = svg('svg', { viewBox: `0 0 ${String(WIDTH)} ${String(LANE * LANES.length + 20)}`, class: 'timeline', role: 'img', 'aria-label': 'timeline of frames, events and their storage' });
  for (const gap of model.gaps) {
    root.appendChild(svg('rect', { x: x(gap.from), y: 0, width: Math.max(1, x(gap.to) - x(gap.from)), height: LANE * LANES.length, class: 'gap' }, svg('title', {}, `gap of ${String(gap.to - gap.from)} ms`)));
  }
  LANES.forEach((lane, index) => {
    const top = index * LANE;
    root.appendChild(svg('text', { x: 0, y: top + LANE / 2 + 4, class: 'lane-label' }, LANE_LABELS[lane]));
    const paths = new Map<string, string[]>();
    for (const mark of model.marks) {
      if (mark.lane !== lane) continue;
      const name = category(mark.kind);
      const list = paths.get(name) ?? [];
      list.push(`M${x(mark.at).toFixed(1)} ${String(top + 4)}v${String(LANE - 8)}`);
      paths.set(name, list);
    }
    for (const [name, segments] of paths) root.appendChild(svg('path', { d: segments.join(''), class: `marks ${name}` }));
  });
  const axis = LANE * LANES.length + 14;
  root.appendChild(svg('text', { x: 140, y: axis, class: 'axis' }, '0 ms'));
  root.appendChild(svg('text', { x: WIDTH - 4, y: axis, class: 'axis end' }, `${String(span)} ms`));
  return root;
}

export function timelineFacts(model: TimelineModel): HTMLElement {
  return el(
    'p',
    { className: 'facts', id: 'timeline-facts' },
    `Time to first delta: ${model.timeToFirstDeltaMs === null ? 'no delta' : `${String(model.timeToFirstDeltaMs)} ms`} · `,
    `gaps: ${String(model.gaps.length)} · heartbeats: ${String(model.heartbeats)} · `,
    `slowest store after production: ${model.maxStoreDelayMs === null ? 'unknown' : `${String(model.maxStoreDelayMs)} ms`}`,
  );
}
