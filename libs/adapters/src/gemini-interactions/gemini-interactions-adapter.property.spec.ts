import fc from 'fast-check';
import { assemble, checkInvariants, type AssembledBlock, type ToolArguments } from '@llm-stream/contract';
import { runTranscript } from '../session/run-transcript.js';
import { GeminiInteractionsAdapter } from './gemini-interactions-adapter.js';

/** One step of a well-formed interaction, with what it must assemble to. */
type GeneratedStep =
  | { readonly kind: 'text'; readonly pieces: readonly string[]; readonly whole: boolean }
  | { readonly kind: 'reasoning'; readonly pieces: readonly string[]; readonly signature: string }
  | { readonly kind: 'tool_call'; readonly id: string; readonly name: string; readonly args: Record<string, unknown>; readonly streamed: boolean };

interface GeneratedInteraction {
  readonly steps: readonly GeneratedStep[];
  readonly status: 'completed' | 'requires_action' | 'incomplete';
  readonly usage: { readonly input: number; readonly output: number; readonly thought: number };
  readonly legacy: boolean;
  readonly lineEnd: '\n' | '\r\n';
}

const text = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' });
const generatedStep: fc.Arbitrary<GeneratedStep> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), pieces: fc.array(text, { minLength: 1, maxLength: 4 }), whole: fc.boolean() }),
  fc.record({ kind: fc.constant('reasoning' as const), pieces: fc.array(text, { maxLength: 3 }), signature: fc.base64String({ minLength: 4, maxLength: 40 }) }),
  fc.record({
    kind: fc.constant('tool_call' as const),
    id: fc.stringMatching(/^[a-z0-9]{4,8}$/),
    name: fc.constantFrom('get_weather', 'read_file', 'search'),
    args: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()), { minKeys: 1, maxKeys: 3 }),
    streamed: fc.boolean(),
  }),
);
const generated: fc.Arbitrary<GeneratedInteraction> = fc.record({
  steps: fc.array(generatedStep, { maxLength: 5 }),
  status: fc.constantFrom('completed' as const, 'requires_action' as const, 'incomplete' as const),
  usage: fc.record({ input: fc.nat(5000), output: fc.nat(5000), thought: fc.nat(5000) }),
  legacy: fc.boolean(),
  lineEnd: fc.constantFrom('\n' as const, '\r\n' as const),
});

/** The interaction as an SSE body: step events (or legacy content events), arguments cut into pieces. */
function encode(interaction: GeneratedInteraction, cuts: readonly number[]): string {
  const { legacy, lineEnd } = interaction;
  let eventNumber = 0;
  const record = (type: string, payload: Record<string, unknown>): string =>
    `event: ${type}${lineEnd}data: ${JSON.stringify({ event_type: type, ...payload, event_id: `e${String(++eventNumber)}` })}${lineEnd}${lineEnd}`;
  const [start, delta, stop, field] = legacy ? ['content.start', 'content.delta', 'content.stop', 'content'] : ['step.start', 'step.delta', 'step.stop', 'step'];
  const records = [record(legacy ? 'interaction.start' : 'interaction.created', { interaction: { id: 'v1_p', status: 'in_progress' } })];
  for (const [index, step] of interaction.steps.entries()) {
    switch (step.kind) {
      case 'text': {
        const whole = step.whole && !legacy;
        records.push(record(start, { index, [field]: { type: legacy ? 'text' : 'model_output', ...(whole && { content: [{ type: 'text', text: step.pieces.join('') }] }) } }));
        if (!whole) for (const piece of step.pieces) records.push(record(delta, { index, delta: { type: 'text', text: piece } }));
        break;
      }
      case 'reasoning':
        records.push(record(start, { index, [field]: { type: 'thought' } }));
        for (const piece of step.pieces) records.push(record(delta, { index, delta: { type: 'thought_summary', content: { type: 'text', text: piece } } }));
        records.push(record(delta, { index, delta: { type: 'thought_signature', signature: step.signature } }));
        break;
      case 'tool_call': {
        const json = JSON.stringify(step.args);
        const whole = !step.streamed || legacy;
        records.push(record(start, { index, [field]: { type: 'function_call', id: step.id, name: step.name, arguments: !step.streamed && !legacy ? step.args : {} } }));
        if (legacy) records.push(record(delta, { index, delta: { type: 'function_call', arguments: step.args } }));
        if (!whole) {
          const edges = [...new Set(cuts.map((cut) => cut % (json.length + 1)))].sort((a, b) => a - b);
          [...edges, json.length].forEach((end, i) => {
            const piece = json.slice(i === 0 ? 0 : (edges[i - 1] ?? 0), end);
            if (piece !== '') records.push(record(delta, { index, delta: { type: 'arguments_delta', arguments: piece } }));
          });
        }
        break;
      }
    }
    records.push(record(stop, { index }));
  }
  const usage = { total_input_tokens: interaction.usage.input, total_output_tokens: interaction.usage.output, total_thought_tokens: interaction.usage.thought };
  records.push(record(legacy ? 'interaction.complete' : 'interaction.completed', { interaction: { id: 'v1_p', status: interaction.status, usage } }));
  records.push(`event: done${lineEnd}data: [DONE]${lineEnd}${lineEnd}`);
  return records.join('');
}

function expectedBlocks(interaction: GeneratedInteraction): Partial<AssembledBlock>[] {
  return interaction.steps.map((step, index): Partial<AssembledBlock> => {
    switch (step.kind) {
      case 'text':
        return { index, kind: 'text', text: step.pieces.join(''), complete: true };
      case 'reasoning':
        return { index, kind: 'reasoning', text: step.pieces.join(''), signature: step.signature, complete: true };
      case 'tool_call':
        return { index, kind: 'tool_call', name: step.name, call_id: step.id, raw_arguments: JSON.stringify(step.args), arguments: step.args as ToolArguments, complete: true };
    }
  });
}

function expectedStopReason(interaction: GeneratedInteraction): string {
  if (interaction.status === 'incomplete') return 'max_tokens';
  if (interaction.status === 'requires_action') return 'tool_use';
  return interaction.steps.some((step) => step.kind === 'tool_call') ? 'tool_use' : 'end_turn';
}

describe('GeminiInteractionsAdapter on generated well-formed interactions', () => {
  it('assembles every step, in order and complete, whatever the chunking, framing and generation of events', () => {
    fc.assert(
      fc.property(generated, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (interaction, argumentCuts, byteCuts) => {
        const body = Buffer.from(encode(interaction, argumentCuts));
        const edges = [...new Set(byteCuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
        const chunks = [...edges, body.length].map((end, i) => body.subarray(i === 0 ? 0 : (edges[i - 1] ?? 0), end));
        const { events } = runTranscript('gemini-interactions', chunks, { createAdapter: () => new GeminiInteractionsAdapter(), clock: () => 0 });
        expect(checkInvariants(events)).toEqual([]);
        const result = assemble(events);
        expect(result.problems).toEqual([]);
        expect(result.status).toBe('completed');
        expect(result.blocks).toEqual(expectedBlocks(interaction).map((block) => expect.objectContaining(block) as unknown));
        expect(result.stop_reason).toBe(expectedStopReason(interaction));
        const { input, output, thought } = interaction.usage;
        expect(result.usage).toEqual({
          input_tokens: input,
          output_tokens: output + thought,
          ...(thought > 0 && { reasoning_tokens: thought }),
        });
      }),
      { numRuns: 1500 },
    );
  });
});
