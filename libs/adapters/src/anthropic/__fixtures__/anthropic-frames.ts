import type { ContractEvent, MachineInput } from '@llm-stream/contract';
import type { ProviderAdapter } from '../../adapter.js';
import { runTranscript } from '../../session/run-transcript.js';
import { parseSseRecord } from '../../sse/sse-record.js';
import { AnthropicAdapter } from '../anthropic-adapter.js';

/**
 * Test support for the Anthropic specs: SSE records in the API's framing (`event: <type>` then one `data:`
 * line, as https://docs.anthropic.com/en/docs/build-with-claude/streaming shows them) and small runners.
 */

/** One SSE record; the event name defaults to the payload's `type`. Strings are sent as the data line verbatim. */
export function sse(data: Record<string, unknown> | string, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const name = event ?? (typeof data === 'string' ? undefined : (data['type'] as string | undefined));
  return `${name === undefined ? '' : `event: ${name}\n`}data: ${payload}\n\n`;
}

export const messageStart = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }): string =>
  sse({
    type: 'message_start',
    message: {
      id: 'msg_01TestTestTestTestTestTe',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });

export const textStart = (index: number, text = ''): string =>
  sse({ type: 'content_block_start', index, content_block: { type: 'text', text } });

export const toolStart = (index: number, name = 'get_weather', id = `toolu_0${String(index)}`): string =>
  sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } });

export const blockStart = (index: number, contentBlock: Record<string, unknown>): string =>
  sse({ type: 'content_block_start', index, content_block: contentBlock });

export const delta = (index: number, value: Record<string, unknown>): string => sse({ type: 'content_block_delta', index, delta: value });

export const textDelta = (index: number, text: string): string => delta(index, { type: 'text_delta', text });

export const jsonDelta = (index: number, partial: string): string => delta(index, { type: 'input_json_delta', partial_json: partial });

export const blockStop = (index: number): string => sse({ type: 'content_block_stop', index });

export const messageDelta = (stopReason: string | null, usage: Record<string, unknown> = { output_tokens: 5 }): string =>
  sse({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage });

export const messageStop = (): string => sse({ type: 'message_stop' });

export const ping = (): string => 'event: ping\ndata: {"type": "ping"}\n\n';

export const streamError = (type: string, message = 'error'): string =>
  sse({ type: 'error', error: { details: null, type, message }, request_id: 'req_011CTestTestTestTestTest' });

/** Feeds records to one adapter, as the session would, and returns every input it produced in order. */
export function feed(adapter: ProviderAdapter, ...records: string[]): MachineInput[] {
  return records.flatMap((text) => [...adapter.frame(parseSseRecord(text))]);
}

/** A whole body through runTranscript with the Anthropic adapter, deterministic ids and clock. */
export function normalize(body: string | Uint8Array, maxFrameBytes?: number): ContractEvent[] {
  let now = 1_000;
  return runTranscript('anthropic', body, {
    createAdapter: () => new AnthropicAdapter(),
    streamId: 'st_test',
    clock: () => now++,
    ...(maxFrameBytes !== undefined && { maxFrameBytes }),
  }).events;
}

/** The terminal event of a list (a test failure if there is none). */
export function terminalOf(events: readonly ContractEvent[]): ContractEvent {
  const last = events.at(-1);
  if (last?.type !== 'stream.done' && last?.type !== 'stream.error') throw new Error(`no terminal event in ${JSON.stringify(events)}`);
  return last;
}
