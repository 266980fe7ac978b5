import { ReplayTally, replayCheck, type OutcomeChange } from '@llm-stream/adapters';
import type { StoredTrace } from '@llm-stream/contract';
import { AuditClient, type StreamListQuery } from '../audit/audit-client.js';

export interface ReplayOptions {
  readonly audit: string;
  readonly key: string;
  readonly query: StreamListQuery;
}

/**
 * The audit log stores a frame with credential-shaped values replaced: its replay reads other bytes than the
 * normalizer did, so a change of such a stream may be the redaction's, not the adapters'.
 */
const REDACTED_NOTE = ' (raw trace redacted when stored: the replay read other bytes than the normalizer)';

/**
 * `replay --audit <url> --key <key> [--from --to --provider --status]`: re-normalizes the stored raw trace of
 * every ended stream the filters select with this build's adapters, compares the outcome with the stored one
 * (status, stop reason, blocks, tool arguments, usage, error category) and prints each changed stream with
 * what changed, then totals per provider. Exit 1 when any outcome changed, 0 otherwise: a deployment
 * pipeline's check that a new adapter version keeps what recorded traffic did. Running streams are skipped.
 */
export async function replayCommand(options: ReplayOptions): Promise<number> {
  const client = new AuditClient(options.audit, options.key);
  const tally = new ReplayTally();
  let running = 0;
  for await (const stream of client.storedTraces(options.query)) {
    // Its trace and events are still arriving: no outcome to compare yet.
    if (stream.status === 'running') {
      running += 1;
      continue;
    }
    const verdict = replayCheck({ running: false, records: stream.records, events: stream.events });
    tally.add(stream.provider, verdict);
    if (verdict.kind === 'replayed' && verdict.changes.length > 0) process.stdout.write(`${describeChanges(stream, verdict.changes)}${stream.redacted ? REDACTED_NOTE : ''}\n`);
    if (verdict.kind === 'unreplayable') process.stdout.write(`${stream.stream_id} ${stream.provider ?? 'unknown'} ${stream.model ?? ''}: not replayed (${verdict.reason})\n`);
  }
  for (const [provider, totals] of tally.byProvider()) {
    process.stdout.write(`${provider}: ${String(totals.replayed)} streams replayed, ${String(totals.changed)} changed${notReplayed(totals.unreplayable)}\n`);
  }
  const counts = tally.counts();
  const skipped = running > 0 ? `, ${String(running)} still running (skipped)` : '';
  process.stdout.write(`total: ${String(counts.replayed)} streams replayed, ${String(counts.changed)} changed${notReplayed(counts.unreplayable)}${skipped}\n`);
  return counts.changed > 0 ? 1 : 0;
}

const notReplayed = (count: number): string => (count > 0 ? `, ${String(count)} not replayed` : '');

/** `st_… anthropic model: stop_reason "end_turn" → "max_tokens"; block 1 tool_arguments {…} → {…}` */
function describeChanges(stream: StoredTrace, changes: readonly OutcomeChange[]): string {
  const what = changes.map((change) => {
    const field = change.block === undefined ? change.field : `block ${String(change.block)} ${change.field}`;
    return `${field} ${JSON.stringify(change.stored)} → ${JSON.stringify(change.replayed)}`;
  });
  return `${stream.stream_id} ${stream.provider ?? 'unknown'} ${stream.model ?? ''}: ${what.join('; ')}`;
}
