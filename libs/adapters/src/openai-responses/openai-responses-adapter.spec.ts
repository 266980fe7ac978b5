import { checkInvariants, type BlockStopEvent } from '@llm-stream/contract';
import { essentialEvents, loadTranscripts, normalizeForKit, recordTexts } from '../../test/conformance-harness.js';
import { parseSseRecord } from '../sse/sse-record.js';
import {
  argumentsDelta,
  body,
  callAdded,
  callDone,
  completed,
  created,
  message,
  messageAdded,
  messageDone,
  partAdded,
  partDone,
  reasoningAdded,
  reasoningDone,
  record,
  run,
  summaryPart,
  textDelta,
  textDone,
  type Payload,
} from './__fixtures__/responses-events.js';
import { OpenAiResponsesAdapter } from './openai-responses-adapter.js';

function stops(events: ReturnType<typeof run>['events']): BlockStopEvent[] {
  return events.filter((event): event is BlockStopEvent => event.type === 'block.stop');
}

describe('OpenAiResponsesAdapter', () => {
  describe('terminal signals', () => {
    it('completes with usage, response id and model from the terminal response object', () => {
      const { result } = run(body(created, ...message('msg_1', ['Hi', '!']), completed({ input_tokens: 3, output_tokens: 2, input_tokens_details: { cached_tokens: 0 } })));
      expect(result).toMatchObject({ status: 'completed', stop_reason: 'end_turn', provider_stop_reason: 'completed', usage: { input_tokens: 3, output_tokens: 2 } });
      expect(result.response_id).toBe('resp_1');
      expect(result.provider_model).toBe('gpt-test-2026');
    });

    it('keeps the raw reason of an incomplete response it has no normalized reason for', () => {
      const incomplete = (details: Payload | null): Payload => ({ type: 'response.incomplete', response: { id: 'r', status: 'incomplete', incomplete_details: details } });
      expect(run(body(created, incomplete({ reason: 'max_tool_calls' }))).result).toMatchObject({ stop_reason: 'other', provider_stop_reason: 'max_tool_calls' });
      expect(run(body(created, incomplete(null))).result).toMatchObject({ stop_reason: 'other', provider_stop_reason: 'incomplete' });
    });

    it('says tool_use over refusal when a response has both a function call and a refusal part', () => {
      const refusal = [
        messageAdded('msg_1'),
        partAdded('msg_1', 0, { type: 'refusal', refusal: '' }),
        { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'No.' },
        { type: 'response.content_part.done', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: 'No.' } },
      ];
      const call = [callAdded('fc_1', 'call_1', 'f', 1), argumentsDelta('fc_1', '{}'), callDone('fc_1', 'call_1', 'f', '{}')];
      expect(run(body(created, ...refusal, ...call, completed())).result.stop_reason).toBe('tool_use');
    });

    it('fails a response.failed without an error object as an unknown upstream error', () => {
      const { result } = run(body(created, { type: 'response.failed', response: { id: 'r', status: 'failed', error: null } }));
      expect(result.error).toMatchObject({ category: 'upstream_error', retryable: false, provider_code: null });
    });

    it('emits nothing after its own terminal input', () => {
      const adapter = new OpenAiResponsesAdapter();
      const frame = (payload: Payload) => adapter.frame(parseSseRecord(record(payload)));
      expect(frame(completed())).toEqual([expect.objectContaining({ type: 'finish' })]);
      expect(frame(messageAdded('msg_late'))).toEqual([]);
      expect(frame({ type: 'error', code: 'server_error', message: 'late' })).toEqual([]);
      expect(adapter.frame(parseSseRecord('data: [DONE]\n\n'))).toEqual([]);
    });

    it('fails with protocol_error on a payload that is not JSON', () => {
      const { result } = run('event: response.created\ndata: {"type":"response.created",\n\n');
      expect(result.error).toMatchObject({ category: 'protocol_error', retryable: false });
    });
  });

  describe('routing', () => {
    it('routes events without item_id by their output_index', () => {
      const noId = (payload: Payload): Payload => {
        const { item_id: _itemId, ...rest } = payload;
        return rest;
      };
      const stream = [messageAdded('msg_1'), noId(partAdded('msg_1')), noId(textDelta('msg_1', 'ok')), noId(partDone('msg_1', 'ok')), messageDone('msg_1', ['ok'])];
      expect(run(body(created, ...stream, completed())).result.blocks).toEqual([expect.objectContaining({ kind: 'text', text: 'ok', complete: true })]);
    });

    it('does not depend on sequence_number: the same stream without it gives the same events', () => {
      for (const transcript of loadTranscripts('openai-responses')) {
        const { texts } = recordTexts(transcript.body);
        const stripped = texts.map((text) => text.replace(/,"sequence_number":\d+/g, '')).join('');
        const create = () => new OpenAiResponsesAdapter();
        expect(essentialEvents(normalizeForKit('openai-responses', stripped, create).events)).toEqual(
          essentialEvents(normalizeForKit('openai-responses', transcript.body, create).events),
        );
      }
    });

    it('fails when a function call argument arrives for an item that never started (no name, no call id)', () => {
      const { result } = run(body(created, argumentsDelta('fc_ghost', '{"a":1}'), completed()));
      expect(result).toMatchObject({ status: 'failed', error: { category: 'protocol_error' } });
    });

    it('fails on a second output_item.added for the same item', () => {
      expect(run(body(created, messageAdded('msg_1'), messageAdded('msg_1'))).result.error?.category).toBe('protocol_error');
    });

    it('takes an output_item.done without output_item.added as the whole item', () => {
      const { result, warnings } = run(body(created, messageDone('msg_x', ['Whole ', 'parts']), completed()));
      expect(result.status).toBe('completed');
      expect(result.blocks).toMatchObject([
        { kind: 'text', text: 'Whole ', complete: true },
        { kind: 'text', text: 'parts', complete: true },
      ]);
      expect(warnings).toEqual([]);
    });

    it('takes the whole text of a done event for a part that streamed none, and verifies it otherwise', () => {
      const whole = run(body(created, messageAdded('msg_1'), partAdded('msg_1', 0), textDone('msg_1', 'All at once'), partDone('msg_1', 'All at once'), messageDone('msg_1', ['All at once']), completed()));
      expect(whole.result.blocks).toMatchObject([{ kind: 'text', text: 'All at once', complete: true }]);
      expect(whole.warnings).toEqual([]);
    });

    it('fails on an output item without a type', () => {
      const { result } = run(body(created, { type: 'response.output_item.added', item: { id: 'x_1' }, output_index: 0 }));
      expect(result.error?.message).toMatch(/without a type/);
    });

    it('fails on an event that names no item at all', () => {
      const { result } = run(body(created, { type: 'response.output_text.delta', content_index: 0, delta: 'x' }));
      expect(result.error?.message).toMatch(/without item_id/);
    });
  });

  describe('text parts', () => {
    it('fails a delta that arrives between output_text.done and content_part.done', () => {
      const stream = [messageAdded('msg_1'), partAdded('msg_1'), textDelta('msg_1', 'a'), textDone('msg_1', 'a'), textDelta('msg_1', 'b')];
      const { result } = run(body(created, ...stream));
      expect(result.error).toMatchObject({ category: 'protocol_error' });
      expect(result.error?.message).toMatch(/after its done event/);
    });

    it('warns once per block however many *.done events disagree, and keeps the streamed text', () => {
      const stream = [messageAdded('msg_1'), partAdded('msg_1'), textDelta('msg_1', 'abc'), textDone('msg_1', 'abd'), partDone('msg_1', 'abd'), messageDone('msg_1', ['abd'])];
      const { result, warnings } = run(body(created, ...stream, completed()));
      expect(warnings).toEqual(['text_mismatch:response.output_text.done']);
      expect(result.blocks[0]?.text).toBe('abc');
    });

    it('counts the initial text of content_part.added as streamed text', () => {
      const stream = [messageAdded('msg_1'), partAdded('msg_1', 0, { type: 'output_text', text: 'Hel' }), textDelta('msg_1', 'lo'), textDone('msg_1', 'Hello'), partDone('msg_1', 'Hello')];
      const { result, warnings } = run(body(created, ...stream, messageDone('msg_1', ['Hello']), completed()));
      expect(result.blocks[0]?.text).toBe('Hello');
      expect(warnings).toEqual([]);
    });

    it('skips a content part of an unknown type with its events, counted once', () => {
      const audio = partAdded('msg_1', 1, { type: 'output_audio', transcript: '' });
      const stream = [...message('msg_1', ['Hi']).slice(0, -1), audio, textDelta('msg_1', 'ignored', 1), messageDone('msg_1', ['Hi'])];
      const { result, warnings } = run(body(created, ...stream, completed()));
      expect(warnings).toEqual(['unknown_part:content_part.output_audio']);
      expect(result.blocks).toHaveLength(1);
    });

    it('fails an output_text delta addressed to a function_call item', () => {
      const { result } = run(body(created, callAdded('fc_1', 'call_1', 'f'), textDelta('fc_1', 'x')));
      expect(result.error?.category).toBe('protocol_error');
    });
  });

  describe('function calls', () => {
    it('never stops a call whose item ends incomplete, so it can never be executed', () => {
      const stream = [callAdded('fc_1', 'call_1', 'f'), argumentsDelta('fc_1', '{"a":'), callDone('fc_1', 'call_1', 'f', '{"a":', 'incomplete')];
      const { events, result } = run(body(created, ...stream, { type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }));
      expect(stops(events)).toEqual([]);
      expect(result).toMatchObject({ status: 'failed', error: { category: 'protocol_error' } });
      expect(result.blocks[0]).toMatchObject({ complete: false, raw_arguments: '{"a":' });
    });

    it('fails a delta after function_call_arguments.done', () => {
      const stream = [callAdded('fc_1', 'call_1', 'f'), argumentsDelta('fc_1', '{}'), { type: 'response.function_call_arguments.done', item_id: 'fc_1', arguments: '{}' }, argumentsDelta('fc_1', ' ')];
      expect(run(body(created, ...stream)).result.error?.message).toMatch(/after its done event/);
    });
  });

  describe('reasoning', () => {
    it('gives each summary part its own block; only the last carries encrypted_content, from output_item.done', () => {
      const stream = [
        reasoningAdded('rs_1', 'partial=='),
        ...summaryPart('rs_1', 0, ['one']),
        ...summaryPart('rs_1', 1, ['two']),
        reasoningDone('rs_1', ['one', 'two'], 'gAAAA final+/=='),
      ];
      const { events, result } = run(body(created, ...stream, completed()));
      expect(result.blocks.map((block) => [block.kind, block.text])).toEqual([['reasoning', 'one'], ['reasoning', 'two']]);
      expect(stops(events).map((stop) => stop.provider_metadata)).toEqual([
        { 'openai-responses': { item_id: 'rs_1' } },
        { 'openai-responses': { item_id: 'rs_1', encrypted_content: 'gAAAA final+/==' } },
      ]);
    });

    it('keeps output_item.added encrypted_content when output_item.done omits it', () => {
      const stream = [reasoningAdded('rs_1', 'only-on-added'), reasoningDone('rs_1', [])];
      const { events } = run(body(created, ...stream, completed()));
      expect(stops(events).map((stop) => stop.provider_metadata)).toEqual([{ 'openai-responses': { item_id: 'rs_1', encrypted_content: 'only-on-added' } }]);
    });

    it('opens no block for a reasoning item with neither summary nor encrypted_content', () => {
      const { result } = run(body(created, reasoningAdded('rs_1'), reasoningDone('rs_1', []), ...message('msg_1', ['ok']), completed()));
      expect(result.blocks.map((block) => block.kind)).toEqual(['text']);
    });

    it('tolerates summary deltas without reasoning_summary_part.added', () => {
      const delta = { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'thinking' };
      const stream = [reasoningAdded('rs_1'), delta, { ...summaryPart('rs_1', 0, ['thinking'])[3] }, reasoningDone('rs_1', ['thinking'])];
      const { events, result } = run(body(created, ...stream, completed()));
      expect(result.blocks).toEqual([expect.objectContaining({ kind: 'reasoning', text: 'thinking', complete: true })]);
      expect(checkInvariants(events)).toEqual([]);
    });
  });

  describe('unknown input', () => {
    it('skips unknown events, and the unknown events of a skipped item without a second warning', () => {
      const search: Payload[] = [
        { type: 'response.output_item.added', item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }, output_index: 0 },
        { type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 0 },
        { type: 'response.output_item.done', item: { id: 'ws_1', type: 'web_search_call', status: 'completed' }, output_index: 0 },
      ];
      const { result, warnings } = run(body(created, ...search, { type: 'response.brand_new', item_id: 'msg_1' }, ...message('msg_1', ['x']), completed()));
      expect(warnings).toEqual(['unknown_part:output_item.web_search_call', 'unknown_event:response.brand_new']);
      expect(result.status).toBe('completed');
    });
  });
});
