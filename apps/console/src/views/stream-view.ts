import type { AuditApi } from '../api.js';
import { dateTime, el, replace } from '../dom.js';
import { endingSentence } from '../ending.js';
import { download, fixtureFiles } from '../export-fixture.js';
import { StreamState } from '../stream-state.js';
import { timelineModel } from '../timeline-model.js';
import { RawTable } from './raw-view.js';
import { replayView } from './replay-view.js';
import { resultView } from './result-view.js';
import { refusal } from './sign-in.js';
import { timelineFacts, timelineView } from './timeline-view.js';

const LIVE_POLL_MS = 250;

/**
 * One stream: why it ended, its timeline, its raw frames beside the events they produced, the assembled result,
 * the chain and invariant check. While the stream runs, what it stored since is read every 250 ms; every section
 * has a fixed place and size, so the page does not shift as events arrive. Returns a stop function for the router.
 */
export function streamView(root: HTMLElement, api: AuditApi, streamId: string): () => void {
  const heading = el('h1', { className: 'mono' }, streamId);
  const summary = el('div', { className: 'summary', id: 'summary' }, 'Loading…');
  const ending = el('p', { className: 'ending', id: 'ending' });
  const timelineBox = el('div', { className: 'timeline-box', id: 'timeline' });
  const facts = el('div', { className: 'facts-box' });
  const verifyBox = el('div', { className: 'verify', id: 'verify' }, 'Checking the chain…');
  const resultBox = el('div', { className: 'result-box' });
  const replayBox = el('div', { className: 'replay', id: 'replay' }, 'Replayed once the stream has ended.');
  const raw = new RawTable();
  const exportButton = el('button', { type: 'button', id: 'export' }, 'Export as conformance fixture');
  exportButton.disabled = true;
  const exportNote = el('span', { className: 'export-note', id: 'export-note', role: 'status' });
  replace(
    root,
    heading,
    el('div', { className: 'actions' }, exportButton, exportNote),
    summary,
    ending,
    el('h2', {}, 'Timeline'),
    timelineBox,
    facts,
    el('div', { className: 'columns' }, el('section', { className: 'left' }, el('h2', {}, 'Raw frames and the events they produced'), raw.element), el('section', { className: 'right' }, el('h2', {}, 'Assembled result'), resultBox, el('h2', {}, 'Hash chain and invariants'), verifyBox, el('h2', {}, 'Replay with this build'), replayBox)),
  );
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const state = new StreamState();
  const render = (): void => {
    const detail = state.detail;
    if (detail === undefined) return;
    const { stream } = detail;
    replace(
      summary,
      el('span', { className: `badge ${stream.status}`, id: 'stream-status' }, stream.status),
      ` ${stream.provider ?? '—'} · ${stream.model ?? '—'}${stream.route === null ? '' : ` · route ${stream.route}`} · started ${dateTime(stream.started_at)} · ${String(stream.event_count)} events · ${String(stream.raw_count)} raw records · trace id `,
      el('span', { className: 'mono', id: 'trace-id' }, stream.trace_id ?? 'none'),
    );
    replace(ending, endingSentence(stream.status, detail.events));
    const model = timelineModel({ startedAt: stream.started_at, records: state.records, events: detail.events, times: detail.event_times });
    replace(timelineBox, timelineView(model));
    replace(facts, timelineFacts(model));
    raw.update(state.records);
    replace(resultBox, resultView(detail));
  };
  /** The raw pages stored after `from` (by default, after what is held), until the store has no more. */
  const readRaw = async (from = state.lastJsSeq): Promise<void> => {
    for (let after = from; ; after = state.lastJsSeq) {
      const page = await api.rawPage(streamId, after);
      state.applyRawPage(page);
      if (page.page?.more !== true) return;
    }
  };
  /** Everything from the start: the first read, and the last one when a live view's counts do not add up. */
  const readWhole = async (): Promise<void> => {
    await Promise.all([api.detail(streamId).then((detail) => { state.applyDetail(detail); }), readRaw(0)]);
  };
  const verify = async (): Promise<void> => {
    try {
      const report = await api.verify(streamId);
      const chain = report.chain.ok ? `chain intact (${String(report.chain.verified)} of ${String(report.chain.events)} events linked)` : `chain broken at seq ${String(report.chain.first_broken?.seq)} (${report.chain.first_broken?.reason ?? ''})`;
      const invariants = report.invariants.ok ? 'invariants clean' : `${String(report.invariants.violations.length)} invariant violations: ${report.invariants.violations.map((violation) => violation.message).join(', ')}`;
      replace(verifyBox, el('span', { className: report.ok ? 'ok' : 'error' }, report.ok ? 'Verified: ' : 'Not verified: '), `${chain}; ${invariants}${report.invariants.partial ? ' (partial: still running)' : ''}.`);
    } catch (error) {
      replace(verifyBox, el('span', { className: 'error' }, refusal(error)));
    }
  };
  const replay = async (): Promise<void> => {
    try {
      replace(replayBox, replayView(await api.replay(streamId)));
    } catch (error) {
      replace(replayBox, el('span', { className: 'error' }, refusal(error)));
    }
  };
  const finish = (): void => {
    root.dataset['rendered'] = 'final';
    exportButton.disabled = false;
    exportButton.onclick = () => {
      const detail = state.detail;
      const trace = state.trace;
      if (detail === undefined || trace === undefined) return;
      const exported = fixtureFiles(detail, trace);
      if (!exported.ok) {
        replace(exportNote, el('span', { className: 'error' }, `Cannot export: ${exported.error.message}.`));
        return;
      }
      download(exported.files);
      replace(exportNote, `Downloaded ${exported.files.map((file) => file.name).join(', ')}: add them under conformance/transcripts/.`);
    };
    // An interrupted stream opens at the frame it was cut in, shown whole.
    if (state.detail?.stream.status === 'interrupted') raw.showCut();
    void verify();
    void replay();
  };
  /**
   * The first read is whole; while the stream runs, each poll reads only the events and raw records stored since
   * the last (a 5,000-event live stream costs its new events per poll, not all of them). Once it has ended, the
   * counts of its record must match what was appended, or it is read whole once more.
   */
  const load = async (first: boolean): Promise<void> => {
    try {
      if (first) await readWhole();
      else {
        const [detail] = await Promise.all([api.detail(streamId, state.lastSeq), readRaw()]);
        state.applyDetail(detail);
        if (detail.stream.status !== 'running') {
          // Records stored between the raw read and the detail that says it ended, then the counts check.
          await readRaw();
          if (!state.matchesCounts()) await readWhole();
        }
      }
      if (stopped) return;
      render();
      if (state.detail?.stream.status === 'running') timer = setTimeout(() => void load(false), LIVE_POLL_MS);
      else finish();
    } catch (error) {
      replace(summary, el('span', { className: 'error' }, refusal(error)));
    }
  };
  void load(true);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
