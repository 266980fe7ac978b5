// Valid streams for property tests: a plan of random blocks (every kind, random deltas, interleaved like
// parallel tool calls), random heartbeats and warnings, and a random ending, played through the state
// machine. Each plan also states, independently of the assembler, what the stream must assemble to.
import fc from 'fast-check';
import {
  BLOCK_KINDS,
  FAILURE_STATUSES,
  StreamMachine,
  STOP_REASONS,
  type AssembledBlock,
  type AssembledStatus,
  type BlockKind,
  type ContractEvent,
  type Delta,
  type FailInput,
  type FinishInput,
  type MachineInput,
  type ProviderMetadata,
  type StreamIdentity,
} from '../src/index.js';
import {
  anyText,
  errorInfoArb,
  jsonValueArb,
  modelArb,
  providerMetadataArb,
  streamIdArb,
  tenantArb,
  usageArb,
  warningArb,
} from './event-arbitraries.js';

export interface PlannedBlock {
  readonly key: string;
  readonly kind: BlockKind;
  readonly name?: string;
  readonly call_id?: string;
  readonly deltas: readonly Delta[];
  readonly closed: boolean;
  readonly metadata?: ProviderMetadata;
}

export interface StreamPlan {
  readonly identity: StreamIdentity;
  /** Everything before the ending, in order. */
  readonly inputs: readonly MachineInput[];
  readonly ending: FinishInput | FailInput | undefined;
  /** In order of first appearance, i.e. by expected block index. */
  readonly blocks: readonly PlannedBlock[];
}

export const identityArb: fc.Arbitrary<StreamIdentity> = fc.record({
  stream_id: streamIdArb,
  provider: fc.constantFrom('openai-chat', 'openai-responses', 'anthropic', 'gemini'),
  model: modelArb,
  tenant: tenantArb,
});

/** Cuts `text` at the given positions (taken modulo its length, so any naturals work). */
export function splitText(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const point of points) {
    parts.push(text.slice(from, point));
    from = point;
  }
  parts.push(text.slice(from));
  return parts;
}

const textDeltas = fc.array(anyText().map((text): Delta => ({ kind: 'text', text })), { maxLength: 5 });
const cutsArb = fc.array(fc.nat(), { maxLength: 4 });

/** Tool arguments as a provider streams them: a JSON object (or "" for no parameters), cut anywhere. */
const toolArgumentDeltas = fc
  .tuple(
    fc.oneof(
      fc.constant(''),
      fc.dictionary(fc.string({ maxLength: 8 }), jsonValueArb, { maxKeys: 4, noNullPrototype: true }).map((args) =>
        JSON.stringify(args),
      ),
    ),
    cutsArb,
  )
  .map(([json, cuts]) => splitText(json, cuts).map((text): Delta => ({ kind: 'json_text', text })));

function contentArb(kind: BlockKind): fc.Arbitrary<Pick<PlannedBlock, 'deltas' | 'name' | 'call_id'>> {
  switch (kind) {
    case 'text':
    case 'refusal':
      return textDeltas.map((deltas) => ({ deltas }));
    case 'reasoning':
      return fc
        .tuple(textDeltas, fc.option(fc.tuple(fc.base64String({ minLength: 4, maxLength: 24 }), cutsArb), { nil: undefined }))
        .map(([deltas, signature]) => ({
          deltas:
            signature === undefined
              ? deltas
              : [...deltas, ...splitText(...signature).map((text): Delta => ({ kind: 'signature', text }))],
        }));
    case 'tool_call':
      return fc
        .tuple(toolArgumentDeltas, fc.record({ name: fc.string({ maxLength: 12 }), call_id: fc.stringMatching(/^call_\w{4,8}$/) }, { requiredKeys: [] }))
        .map(([deltas, names]) => ({ deltas, ...names }));
  }
}

const blockArb = (key: string, mustClose: boolean): fc.Arbitrary<PlannedBlock> =>
  fc
    .constantFrom(...BLOCK_KINDS)
    .chain((kind) =>
      fc.tuple(
        fc.constant(kind),
        contentArb(kind),
        mustClose ? fc.constant(true) : fc.boolean(),
        fc.option(providerMetadataArb, { nil: undefined }),
      ),
    )
    .map(
      ([kind, content, closed, metadata]): PlannedBlock => ({
        key,
        kind,
        closed,
        ...content,
        ...(metadata === undefined || !closed ? {} : { metadata }),
      }),
    );

const finishArb: fc.Arbitrary<FinishInput> = fc
  .record(
    {
      stop_reason: fc.constantFrom(...STOP_REASONS),
      provider_stop_reason: fc.option(fc.string({ maxLength: 12 })),
      usage: usageArb,
      response_id: fc.string({ maxLength: 12 }),
      provider_model: fc.string({ maxLength: 12 }),
      provider_metadata: providerMetadataArb,
    },
    { requiredKeys: ['stop_reason', 'provider_stop_reason'] },
  )
  .map((fields): FinishInput => ({ type: 'finish', ...fields }));

const failArb: fc.Arbitrary<FailInput> = fc
  .tuple(fc.constantFrom(...FAILURE_STATUSES), errorInfoArb)
  .map(([status, error]): FailInput => ({ type: 'fail', status, error }));

const noiseArb: fc.Arbitrary<MachineInput> = fc.oneof(
  fc.constant<MachineInput>({ type: 'heartbeat' }),
  warningArb.map((warning): MachineInput => ({ type: 'warn', warning })),
);

export interface PlanOptions {
  /** Only plans that end with stream.done (every block closed). */
  readonly completedOnly?: boolean;
}

export function streamPlanArb(options: PlanOptions = {}): fc.Arbitrary<StreamPlan> {
  const endingArb: fc.Arbitrary<'done' | 'fail' | 'none'> =
    options.completedOnly === true ? fc.constant('done') : fc.constantFrom('done', 'fail', 'none');
  return fc.tuple(identityArb, endingArb, fc.nat({ max: 5 })).chain(([identity, endingKind, count]) =>
    fc
      .record({
        blocks: fc.tuple(...Array.from({ length: count }, (_, i) => blockArb(`key-${i}`, endingKind === 'done'))),
        picks: fc.array(fc.nat(), { maxLength: 40 }),
        noise: fc.array(fc.tuple(fc.nat(), noiseArb), { maxLength: 4 }),
        finish: finishArb,
        fail: failArb,
      })
      .map(({ blocks, picks, noise, finish, fail }) => {
        const ending = endingKind === 'done' ? finish : endingKind === 'fail' ? fail : undefined;
        return buildPlan(identity, blocks, picks, noise, ending);
      }),
  );
}

function buildPlan(
  identity: StreamIdentity,
  blocks: readonly PlannedBlock[],
  picks: readonly number[],
  noise: readonly (readonly [number, MachineInput])[],
  ending: FinishInput | FailInput | undefined,
): StreamPlan {
  const queues = blocks.map((block) => blockInputs(block));
  const inputs: MachineInput[] = [];
  const firstSeen: PlannedBlock[] = [];
  // Interleave the blocks' input lists at random, keeping each block's own order (parallel tool calls).
  for (let step = 0; queues.some((queue) => queue.length > 0); step += 1) {
    const candidates = queues.map((queue, i) => [queue, i] as const).filter(([queue]) => queue.length > 0);
    const [queue, i] = candidates[(picks[step % Math.max(picks.length, 1)] ?? 0) % candidates.length] ?? [[], -1];
    const input = queue.shift();
    if (input === undefined) break;
    if (input.type === 'block.open') firstSeen.push(blocks[i] as PlannedBlock);
    inputs.push(input);
  }
  for (const [position, input] of noise) inputs.splice(position % (inputs.length + 1), 0, input);
  return { identity, inputs, ending, blocks: firstSeen };
}

function blockInputs(block: PlannedBlock): MachineInput[] {
  const open: MachineInput = {
    type: 'block.open',
    key: block.key,
    kind: block.kind,
    ...(block.name === undefined ? {} : { name: block.name }),
    ...(block.call_id === undefined ? {} : { call_id: block.call_id }),
  };
  const appends = block.deltas.map((delta): MachineInput => ({ type: 'block.append', key: block.key, delta }));
  const close: MachineInput[] = block.closed
    ? [{ type: 'block.close', key: block.key, ...(block.metadata === undefined ? {} : { provider_metadata: block.metadata }) }]
    : [];
  return [open, ...appends, ...close];
}

/** Plays a plan through a fresh state machine; timestamps are 1000, 1001... */
export function runPlan(plan: StreamPlan): ContractEvent[] {
  const machine = new StreamMachine(plan.identity);
  const events = machine.start(1000);
  const inputs = plan.ending === undefined ? plan.inputs : [...plan.inputs, plan.ending];
  inputs.forEach((input, i) => events.push(...machine.apply(input, 1001 + i)));
  return events;
}

export function expectedStatus(plan: StreamPlan): AssembledStatus {
  if (plan.ending === undefined) return 'open';
  return plan.ending.type === 'finish' ? 'completed' : plan.ending.status;
}

/** What the plan's blocks must assemble to, computed from the plan alone. */
export function expectedBlocks(plan: StreamPlan): AssembledBlock[] {
  return plan.blocks.map((block, index) => {
    const joined = (kind: Delta['kind']): string =>
      block.deltas
        .filter((delta) => delta.kind === kind)
        .map((delta) => delta.text)
        .join('');
    const raw = joined('json_text');
    const hasSignature = block.deltas.some((delta) => delta.kind === 'signature');
    return {
      index,
      kind: block.kind,
      complete: block.closed,
      ...(block.kind === 'tool_call' ? { raw_arguments: raw } : { text: joined('text') }),
      ...(block.kind === 'tool_call' && block.closed ? { arguments: raw === '' ? {} : (JSON.parse(raw) as object) } : {}),
      ...(block.name === undefined ? {} : { name: block.name }),
      ...(block.call_id === undefined ? {} : { call_id: block.call_id }),
      ...(hasSignature ? { signature: joined('signature') } : {}),
      ...(block.metadata === undefined ? {} : { provider_metadata: block.metadata }),
    } as AssembledBlock;
  });
}
