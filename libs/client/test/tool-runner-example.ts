import type { NatsConnection } from '@nats-io/nats-core';
import { isTerminalEvent, type ToolArguments } from '@llm-stream/contract';
import { LlmStreamClient, type SeqCheckpointStore } from '../src/index.js';

/** The tools this backend runs, by name. The call id doubles as an idempotency key. */
export type Tools = Readonly<Record<string, (args: ToolArguments, callId: string | undefined) => Promise<unknown>>>;

export interface ToolRunnerOptions {
  readonly tenant: string;
  readonly tools: Tools;
  /** Aborting stops the backend after the event it is handling. */
  readonly signal: AbortSignal;
  /** Where the last handled seq of each stream is kept; see "Exactly once" below. */
  readonly checkpoints?: SeqCheckpointStore;
  readonly log?: (message: string, fields: Readonly<Record<string, unknown>>) => void;
}

/**
 * Reads every stream of a tenant through a durable consumer, so that a restart misses nothing, and runs the
 * tool calls of each stream once it has ended completed. Calls of a stream that failed or was cut are
 * reported, never run, even when their block closed with valid JSON.
 */
export async function runToolRunner(nc: NatsConnection, options: ToolRunnerOptions): Promise<void> {
  const log =
    options.log ??
    ((message, fields) => {
      console.log(JSON.stringify({ message, ...fields }));
    });
  const client = new LlmStreamClient(nc, {
    tenant: options.tenant,
    onInvalid: (report) => {
      log('invalid event skipped', { ...report });
    },
  });
  // One durable name per purpose (on a shared, anonymous server names are global in LLM_EVENTS: one per tenant and purpose).
  const events = client.durableTenantStreams(`tool-runner-${options.tenant}`, {
    signal: options.signal,
    ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
  });
  for await (const event of events) {
    // Only a stream's end matters here; result() re-reads the whole stream from JetStream, so the outcome
    // is complete even for a stream that began before this process started.
    if (!isTerminalEvent(event)) continue;
    const outcome = await client.result(event.stream_id);
    for (const call of outcome.toolCalls) {
      const tool = options.tools[call.name];
      if (tool === undefined) {
        log('unknown tool', { stream_id: outcome.streamId, name: call.name });
        continue;
      }
      const result = await tool(call.arguments, call.callId);
      log('tool call ran', { stream_id: outcome.streamId, name: call.name, call_id: call.callId, result });
    }
    for (const call of outcome.unexecutableToolCalls) {
      log('tool call not run', { stream_id: outcome.streamId, name: call.name, reason: call.reason, status: outcome.status });
    }
  }
}
