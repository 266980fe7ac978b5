import { checkInvariants, type ContractEvent } from '@llm-stream/contract';
import { runTranscript } from '../session/run-transcript.js';
import { parseSseRecord } from '../sse/sse-record.js';
import { GeminiInteractionsAdapter } from './gemini-interactions-adapter.js';

/** An Interactions stream body from its events, each named in `event:` and `event_type`. */
function body(...events: readonly Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event['event_type'])}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function normalize(text: string): ContractEvent[] {
  const { events } = runTranscript('gemini-interactions', text, { createAdapter: () => new GeminiInteractionsAdapter(), streamId: 'st_1', clock: () => 0 });
  expect(checkInvariants(events)).toStrictEqual([]);
  return events;
}

/** Event types, with the block index, the stop reason or the error category. */
function outline(events: readonly ContractEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'block.start':
      case 'block.delta':
      case 'block.stop':
        return `${event.type}#${String(event.block.index)}`;
      case 'stream.done':
        return `stream.done:${event.stop_reason}:${String(event.provider_stop_reason)}`;
      case 'stream.error':
        return `stream.error:${event.status}:${event.error.category}`;
      case 'stream.warning':
        return `stream.warning:${event.warning.code}`;
      case 'stream.start':
      case 'stream.heartbeat':
        return event.type;
    }
  });
}

const created = { event_type: 'interaction.created', interaction: { id: 'v1_a', status: 'in_progress', model: 'gemini-3-flash-preview' } };
const completed = (status: string) => ({ event_type: 'interaction.completed', interaction: { id: 'v1_a', status, usage: { total_input_tokens: 3, total_output_tokens: 2 } } });
const textStep = (index: number, text: string) => [
  { event_type: 'step.start', index, step: { type: 'model_output' } },
  { event_type: 'step.delta', index, delta: { type: 'text', text } },
  { event_type: 'step.stop', index },
];

describe('GeminiInteractionsAdapter', () => {
  it('completes one text step with the interaction id, model and usage', () => {
    const events = normalize(body(created, ...textStep(0, 'Hi'), completed('completed')) + 'event: done\ndata: [DONE]\n\n');
    expect(outline(events)).toStrictEqual(['stream.start', 'block.start#0', 'block.delta#0', 'block.stop#0', 'stream.done:end_turn:completed']);
    expect(events.at(-1)).toMatchObject({ response_id: 'v1_a', provider_model: 'gemini-3-flash-preview', usage: { input_tokens: 3, output_tokens: 2 } });
  });

  it('dispatches on the SSE event name when the payload has no event_type', () => {
    const text = 'event: step.start\ndata: {"index":0,"step":{"type":"model_output"}}\n\n';
    expect(outline(normalize(body(created) + text))).toStrictEqual(['stream.start', 'stream.error:interrupted:transport_interrupted']);
  });

  it('fails a second start of the same step index', () => {
    const start = { event_type: 'step.start', index: 0, step: { type: 'thought' } };
    expect(outline(normalize(body(created, start, start)))).toStrictEqual(['stream.start', 'block.start#0', 'stream.error:failed:protocol_error']);
  });

  it('fails a text delta for a function call step and a step start without a type', () => {
    const call = { event_type: 'step.start', index: 0, step: { type: 'function_call', id: 'c', name: 'f', arguments: {} } };
    const wrong = { event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'x' } };
    expect(outline(normalize(body(created, call, wrong)))).toStrictEqual(['stream.start', 'block.start#0', 'stream.error:failed:protocol_error']);
    expect(outline(normalize(body(created, { event_type: 'step.start', index: 0, step: {} })))).toStrictEqual(['stream.start', 'stream.error:failed:protocol_error']);
  });

  it('fails an interaction.completed that is still in progress, or has no interaction', () => {
    expect(outline(normalize(body(created, completed('in_progress'))))).toStrictEqual(['stream.start', 'stream.error:failed:protocol_error']);
    expect(outline(normalize(body(created, { event_type: 'interaction.completed' })))).toStrictEqual(['stream.start', 'stream.error:failed:protocol_error']);
  });

  it('names a function call without an id by its step index', () => {
    const call = { event_type: 'step.start', index: 3, step: { type: 'function_call', name: 'f', arguments: { a: 1 } } };
    const events = normalize(body(created, call, { event_type: 'step.stop', index: 3 }, completed('requires_action')));
    expect(events[1]).toMatchObject({ type: 'block.start', call_id: 'call_3', name: 'f' });
    expect(events[2]).toMatchObject({ type: 'block.delta', delta: { kind: 'json_text', text: '{"a":1}' } });
  });

  it('answers an HTTP error before any frame with a failure categorized by status', () => {
    const adapter = new GeminiInteractionsAdapter();
    const inputs = adapter.response({
      kind: 'upstream.response',
      raw_seq: 3,
      ts: 0,
      attempt: 1,
      status: 503,
      content_type: 'application/json',
      body: JSON.stringify({ error: { code: 'overloaded', message: 'try later' } }),
    });
    expect(inputs).toMatchObject([{ type: 'fail', error: { category: 'upstream_overloaded', retryable: true, provider_code: 'overloaded', http_status: 503 } }]);
    // Nothing after its own terminal input.
    expect(adapter.frame(parseSseRecord('data: [DONE]\n\n'))).toStrictEqual([]);
  });
});
