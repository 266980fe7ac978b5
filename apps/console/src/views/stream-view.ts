import type { RawTrace, StreamDetail } from '@llm-stream/contract';
import type { AuditApi } from '../api.js';
import { dateTime, el, replace } from '../dom.js';
import { endingSentence } from '../ending.js';
import { download, fixtureFiles } from '../export-fixture.js';
import { timelineModel } from '../timeline-model.js';
import { RawTable } from './raw-view.js';
import { replayView } from './replay-view.js';
import { resultView } from './result-view.js';
import { refusal } from './sign-in.js';
import { timelineFacts, timelineView } from './timeline-view.js';

const LIVE_POLL_MS = 250;

/**
 * One stream: why it ended, its timeline, its raw frames beside the events they produced, the assembled result,
 * the chain and invariant check. While the stream runs it is re-read every 250 ms; every section has a fixed
 * place and size, so the page does not shift as events arrive. Returns a stop function for the router.
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
  const render = (detail: StreamDetail, trace: RawTrace): void => {
    const { stream } = detail;
    replace(
      summary,
      el('span', { className: `badge ${stream.status}`, id: 'stream-status' }, stream.status),
      ` ${stream.provider ?? '—'} · ${stream.model ?? '—'}${stream.route === null ? '' : ` · route ${stream.route}`} · started ${dateTime(stream.started_at)} · ${String(stream.event_count)} events · ${String(stream.raw_count)} raw records · trace id `,
      el('span', { className: 'mono', id: 'trace-id' }, stream.trace_id ?? 'none'),
    );
    replace(ending, endingSentence(stream.status, detail.events));
    const model = timelineModel({ startedAt: stream.started_at, records: trace.records, events: detail.events, times: detail.event_times });
    replace(timelineBox, timelineView(model));
    replace(facts, timelineFacts(model));
    raw.update(trace.records);
    replace(resultBox, resultView(detail));
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
  const load = async (): Promise<void> => {
    try {
      const [detail, trace] = await Promise.all([api.detail(streamId), api.raw(streamId)]);
      if (stopped) return;
      render(detail, trace);
      exportButton.onclick = () => {
        const exported = fixtureFiles(detail, trace);
        if (!exported.ok) {
          replace(exportNote, el('span', { className: 'error' }, `Cannot export: ${exported.error.message}.`));
          return;
        }
        download(exported.files);
        replace(exportNote, `Downloaded ${exported.files.map((file) => file.name).join(', ')}: add them under conformance/transcripts/.`);
      };
      exportButton.disabled = detail.stream.status === 'running';
      if (detail.stream.status === 'running') timer = setTimeout(() => void load(), LIVE_POLL_MS);
      else {
        root.dataset['rendered'] = 'final';
        void verify();
        void replay();
      }
    } catch (error) {
      replace(summary, el('span', { className: 'error' }, refusal(error)));
    }
  };
  void load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
