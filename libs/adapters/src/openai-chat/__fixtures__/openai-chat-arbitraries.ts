// Test support for the OpenAI chat property and fuzz specs: chunk records, well-formed answers with the
// outcome they must assemble to, and random record soups.
import fc from 'fast-check';

const HEAD = { id: 'chatcmpl-fuzz', object: 'chat.completion.chunk', created: 1772600000, model: 'gpt-fuzz' };

/** One SSE record of a chunk whose only choice is choice 0 (or `choiceIndex`). */
export function chunkRecord(delta: unknown, finishReason: string | null = null, extra: Record<string, unknown> = {}, choiceIndex = 0): string {
  const choice = { index: choiceIndex, delta, logprobs: null, finish_reason: finishReason };
  return `data: ${JSON.stringify({ ...HEAD, choices: [choice], usage: null, ...extra })}\n\n`;
}

export function usageRecord(prompt: number, completion: number): string {
  return `data: ${JSON.stringify({ ...HEAD, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;
}

export const DONE_RECORD = 'data: [DONE]\n\n';

export type SequentialKind = 'text' | 'reasoning' | 'refusal';

export interface SequentialSegment {
  readonly kind: SequentialKind;
  readonly pieces: readonly string[];
}

export interface ToolSegment {
  readonly kind: 'tool_call';
  readonly id: string;
  readonly name: string;
  /** The whole argument text (`""` for a zero-parameter call). */
  readonly args: string;
  readonly pieces: readonly string[];
  /** How the first fragment carries arguments: no key, `""`, or the first piece. */
  readonly firstArguments: 'absent' | 'empty' | 'first-piece';
}

export type Segment = SequentialSegment | ToolSegment;

/** A well-formed answer: its segments in order, how it is encoded, and how it ends. */
export interface WellFormedAnswer {
  readonly segments: readonly Segment[];
  /** Tool indexes start here (the protocol does not promise 0). */
  readonly firstToolIndex: number;
  /** Consecutive tool calls send their fragments round-robin instead of one call after another. */
  readonly interleaveTools: boolean;
  readonly reasoningField: 'reasoning_content' | 'reasoning';
  readonly finishReason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  readonly usage: { readonly prompt: number; readonly completion: number };
  /** On the finish chunk (DeepSeek), in a later `choices: []` chunk (OpenAI), both (the later wins), none. */
  readonly usagePlacement: 'finish' | 'later' | 'both' | 'none';
  /** After which records a `: keep-alive` comment goes. */
  readonly comments: readonly number[];
}

const piece = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 });

const sequentialSegment: fc.Arbitrary<SequentialSegment> = fc.record({
  kind: fc.constantFrom<SequentialKind>('text', 'reasoning', 'refusal'),
  pieces: fc.array(piece, { minLength: 1, maxLength: 4 }),
});

const toolArgs = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((value) => JSON.stringify(value)) },
);

const toolSegment: fc.Arbitrary<ToolSegment> = fc
  .record({
    id: fc.stringMatching(/^call_[A-Za-z0-9]{6}$/),
    name: fc.constantFrom('get_weather', 'search', 'noop'),
    args: toolArgs,
    cuts: fc.uniqueArray(fc.nat(), { maxLength: 5 }),
    firstArguments: fc.constantFrom<ToolSegment['firstArguments']>('absent', 'empty', 'first-piece'),
  })
  .map(({ cuts, ...segment }) => ({ kind: 'tool_call', ...segment, pieces: splitCodePoints(segment.args, cuts) }));

/** Cuts a string into non-empty pieces at code point boundaries (providers never split a UTF-16 pair). */
export function splitCodePoints(text: string, cuts: readonly number[]): string[] {
  const points = Array.from(text);
  const positions = [...new Set(cuts.map((cut) => cut % (points.length + 1)))].filter((cut) => cut > 0).sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of [...positions, points.length]) {
    if (position > start) pieces.push(points.slice(start, position).join(''));
    start = position;
  }
  return pieces;
}

export const wellFormedAnswer: fc.Arbitrary<WellFormedAnswer> = fc.record({
  segments: fc.array(fc.oneof(sequentialSegment, toolSegment), { maxLength: 6 }).map(mergeAdjacentSequential),
  firstToolIndex: fc.nat(2),
  interleaveTools: fc.boolean(),
  reasoningField: fc.constantFrom<WellFormedAnswer['reasoningField']>('reasoning_content', 'reasoning'),
  finishReason: fc.constantFrom<WellFormedAnswer['finishReason']>('stop', 'length', 'tool_calls', 'content_filter'),
  usage: fc.record({ prompt: fc.nat(5000), completion: fc.nat(5000) }),
  usagePlacement: fc.constantFrom<WellFormedAnswer['usagePlacement']>('finish', 'later', 'both', 'none'),
  comments: fc.array(fc.nat(60), { maxLength: 4 }),
});

/** Two text segments in a row are one block on the wire: merge them so the model says what the wire says. */
function mergeAdjacentSequential(segments: readonly Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const segment of segments) {
    const previous = merged.at(-1);
    if (previous && previous.kind !== 'tool_call' && segment.kind === previous.kind) {
      merged[merged.length - 1] = { kind: previous.kind, pieces: [...previous.pieces, ...segment.pieces] };
    } else {
      merged.push(segment);
    }
  }
  return merged;
}

/** The answer as OpenAI-style records (role chunk first, `[DONE]` last). */
export function encodeAnswer(answer: WellFormedAnswer): string[] {
  const records = [chunkRecord({ role: 'assistant', content: '', refusal: null })];
  const { segments } = answer;
  let toolIndex = answer.firstToolIndex;
  for (let at = 0; at < segments.length; ) {
    const segment = segments[at];
    if (segment === undefined) break;
    if (segment.kind !== 'tool_call') {
      const field = segment.kind === 'text' ? 'content' : segment.kind === 'refusal' ? 'refusal' : answer.reasoningField;
      for (const text of segment.pieces) records.push(chunkRecord({ [field]: text }));
      at += 1;
      continue;
    }
    const run: { segment: ToolSegment; index: number; rest: string[] }[] = [];
    for (; segments[at]?.kind === 'tool_call'; at += 1) {
      const tool = segments[at] as ToolSegment;
      run.push({ segment: tool, index: toolIndex++, rest: tool.firstArguments === 'first-piece' ? tool.pieces.slice(1) : [...tool.pieces] });
    }
    const first = ({ segment, index }: (typeof run)[number]): string => {
      const fn: Record<string, string> = { name: segment.name };
      if (segment.firstArguments === 'empty') fn['arguments'] = '';
      if (segment.firstArguments === 'first-piece') fn['arguments'] = segment.pieces[0] ?? '';
      return chunkRecord({ tool_calls: [{ index, id: segment.id, type: 'function', function: fn }] });
    };
    const fragment = (index: number, text: string): string => chunkRecord({ tool_calls: [{ index, function: { arguments: text } }] });
    if (answer.interleaveTools) {
      for (const call of run) records.push(first(call));
      for (let round = 0; run.some((call) => call.rest.length > round); round += 1) {
        for (const call of run) {
          const text = call.rest[round];
          if (text !== undefined) records.push(fragment(call.index, text));
        }
      }
    } else {
      for (const call of run) {
        records.push(first(call));
        for (const text of call.rest) records.push(fragment(call.index, text));
      }
    }
  }
  const { prompt, completion } = answer.usage;
  const onFinish = answer.usagePlacement === 'finish' || answer.usagePlacement === 'both';
  // With usage in both places the finish chunk carries a smaller, provisional count: the later one must win.
  const finishUsage = { prompt_tokens: prompt, completion_tokens: answer.usagePlacement === 'both' ? Math.floor(completion / 2) : completion };
  records.push(chunkRecord({}, answer.finishReason, onFinish ? { usage: finishUsage } : {}));
  if (answer.usagePlacement === 'later' || answer.usagePlacement === 'both') records.push(usageRecord(prompt, completion));
  records.push(DONE_RECORD);
  for (const after of [...answer.comments].sort((a, b) => b - a)) records.splice(Math.min(after, records.length), 0, ': keep-alive\n\n');
  return records;
}

/** Cuts a body into chunks at the given byte positions. */
export function chunkBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const positions = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const position of [...positions, bytes.length]) {
    chunks.push(bytes.subarray(start, position));
    start = position;
  }
  return chunks;
}

const soupText = fc.string({ unit: 'grapheme', maxLength: 6 });
const soupReason = fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'error', '', 'eos', null);
const soupArguments = fc.constantFrom('', '{', '}', '"a"', ':', '1', '{"a":1}', 'x', '[]', ' ');

/** A record of any kind a chat stream (or a broken proxy) might send, in any order. */
export const soupRecord: fc.Arbitrary<string> = fc.oneof(
  soupText.map((text) => chunkRecord({ content: text })),
  soupText.map((text) => chunkRecord({ refusal: text })),
  fc.tuple(fc.constantFrom('reasoning', 'reasoning_content'), soupText).map(([field, text]) => chunkRecord({ [field]: text })),
  fc
    .record({
      index: fc.oneof(fc.nat(3), fc.constant(undefined)),
      id: fc.constantFrom('call_a', 'call_b', '', undefined),
      type: fc.constantFrom('function', 'custom', undefined),
      name: fc.constantFrom('f', 'g', undefined),
      arguments: fc.oneof(soupArguments, fc.constant(undefined)),
    })
    .map(({ index, id, type, name, arguments: args }) =>
      chunkRecord({ tool_calls: [{ ...(index !== undefined && { index }), ...(id !== undefined && { id }), ...(type !== undefined && { type }), function: { ...(name !== undefined && { name }), ...(args !== undefined && { arguments: args }) } }] }),
    ),
  soupReason.map((reason) => chunkRecord({}, reason)),
  fc.tuple(soupText, soupReason).map(([text, reason]) => chunkRecord({ content: text }, reason, { usage: { prompt_tokens: 1, completion_tokens: 2 } })),
  fc.tuple(fc.nat(100), fc.nat(100)).map(([prompt, completion]) => usageRecord(prompt, completion)),
  fc.constantFrom(
    'data: {"error": {"message": "boom", "type": "server_error", "param": null, "code": null}}\n\n',
    'data: {"error":{"code":429,"message":"Rate limit exceeded"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n',
    'data: {"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400}\n\n',
    'data: {"error":"plain"}\n\n',
    'data: {"error":null,"choices":[]}\n\n',
  ),
  fc.constant(DONE_RECORD),
  fc.constantFrom(
    ': keep-alive\n\n',
    ': OPENROUTER PROCESSING\n\n',
    ':\n\n',
    'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0}]}\n\n',
  ),
  soupText.map((text) => chunkRecord({ content: text }, null, {}, 1)),
  fc.jsonValue({ maxDepth: 2 }).map((value) => chunkRecord({ audio: value })),
  fc.constantFrom(
    'data: {"choices":[{"delta":\n\n',
    'data: [1,2]\n\n',
    'data: "x"\n\n',
    'data: null\n\n',
    'data:\n\n',
    'data: \n\n',
    'event: error\ndata: {}\n\n',
    'id: 5\nretry: 10\n\n',
    'not an sse line\n\n',
    '\n',
    'data: {"choices":{"index":0}}\n\n',
    'data: {"choices":[{"index":0,"delta":{"content":7}}]}\n\n',
    'data: {"choices":[{"index":"0","delta":{}}]}\n\n',
    'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":{}}}]}}]}\n\n',
  ),
);
