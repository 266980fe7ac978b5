// Arbitraries for single contract events, each typed as its event type: if the TypeScript types change and
// an arbitrary no longer fits, this file stops compiling; if the schema rejects something the types allow
// (and the arbitraries generate), the schema property test fails. Together they keep types and schema equal.
import fc from 'fast-check';
import {
  ALLOWED_DELTA_KINDS,
  BLOCK_KINDS,
  ERROR_CATEGORIES,
  FAILURE_STATUSES,
  PROVIDERS,
  STOP_REASONS,
  WARNING_CODES,
  type BlockDeltaEvent,
  type BlockKind,
  type BlockRef,
  type BlockStartEvent,
  type BlockStopEvent,
  type CacheCreationUsage,
  type ContractEvent,
  type Delta,
  type EventEnvelope,
  type JsonValue,
  type ProviderMetadata,
  type StreamDoneEvent,
  type StreamErrorEvent,
  type StreamErrorInfo,
  type StreamHeartbeatEvent,
  type StreamStartEvent,
  type StreamWarning,
  type StreamWarningEvent,
  type Usage,
} from '../src/index.js';

/** Any Unicode text, including astral code points: deltas are arbitrary model output. */
export const anyText = (): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength: 12 });

export const streamIdArb: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
export const tenantArb: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/);
export const modelArb: fc.Arbitrary<string> = fc.string({ minLength: 1, maxLength: 20 });
const tsArb = fc.integer({ min: 0, max: 2 ** 42 });

export const envelopeArb: fc.Arbitrary<EventEnvelope> = fc.record({
  stream_id: streamIdArb,
  seq: fc.integer({ min: 1, max: 1_000_000 }),
  ts: tsArb,
});

export const blockKindArb: fc.Arbitrary<BlockKind> = fc.constantFrom(...BLOCK_KINDS);

export const blockRefArb: fc.Arbitrary<BlockRef> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 30 }),
  index: fc.nat({ max: 1000 }),
  kind: blockKindArb,
});

/** A delta whose kind the block kind accepts (the schema enforces ALLOWED_DELTA_KINDS). */
export const deltaFor = (kind: BlockKind): fc.Arbitrary<Delta> =>
  fc.record({ kind: fc.constantFrom(...ALLOWED_DELTA_KINDS[kind]), text: anyText() });

/**
 * JSON values typed as the contract's JsonValue (fast-check's own JSON type allows `undefined` members, which
 * exactOptionalPropertyTypes rejects). No -0: JSON cannot carry it, so it could not survive a round trip.
 */
export const jsonValueArb: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;

export const providerMetadataArb: fc.Arbitrary<ProviderMetadata> = fc.dictionary(
  fc.constantFrom(...PROVIDERS),
  fc.dictionary(fc.string({ maxLength: 10 }), jsonValueArb, { maxKeys: 3, noNullPrototype: true }),
  { maxKeys: 2, noNullPrototype: true },
);

/** The per-lifetime split of cache writes as the contract carries it: at least one count non-zero. */
const cacheCreationArb: fc.Arbitrary<CacheCreationUsage> = fc.oneof(
  fc.record({ ephemeral_5m_input_tokens: fc.integer({ min: 1 }), ephemeral_1h_input_tokens: fc.nat() }, { requiredKeys: ['ephemeral_5m_input_tokens'] }),
  fc.record({ ephemeral_5m_input_tokens: fc.nat(), ephemeral_1h_input_tokens: fc.integer({ min: 1 }) }, { requiredKeys: ['ephemeral_1h_input_tokens'] }),
);

export const usageArb: fc.Arbitrary<Usage> = fc.record(
  {
    input_tokens: fc.nat(),
    output_tokens: fc.nat(),
    reasoning_tokens: fc.integer({ min: 1 }),
    cached_input_tokens: fc.integer({ min: 1 }),
    cache_creation_input_tokens: fc.integer({ min: 1 }),
    cache_creation: cacheCreationArb,
  },
  { requiredKeys: ['input_tokens', 'output_tokens'] },
);

export const errorInfoArb: fc.Arbitrary<StreamErrorInfo> = fc.record(
  {
    category: fc.constantFrom(...ERROR_CATEGORIES),
    retryable: fc.constantFrom(true, false, null),
    provider_code: fc.option(fc.string({ maxLength: 20 })),
    message: fc.string({ maxLength: 40 }),
    http_status: fc.integer({ min: 100, max: 599 }),
  },
  { requiredKeys: ['category', 'retryable', 'provider_code', 'message'] },
);

export const warningArb: fc.Arbitrary<StreamWarning> = fc.record(
  {
    code: fc.constantFrom(...WARNING_CODES),
    message: fc.string({ maxLength: 40 }),
    provider_event_type: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: ['code', 'message'] },
);

export const streamStartArb: fc.Arbitrary<StreamStartEvent> = fc.record({
  type: fc.constant('stream.start'),
  stream_id: streamIdArb,
  seq: fc.constant(1),
  ts: tsArb,
  provider: fc.constantFrom(...PROVIDERS),
  model: modelArb,
  tenant: tenantArb,
});

const toolNamesArb = fc.record(
  { name: fc.string({ maxLength: 20 }), call_id: fc.string({ maxLength: 20 }) },
  { requiredKeys: [] },
);

export const blockStartArb: fc.Arbitrary<BlockStartEvent> = fc
  .tuple(envelopeArb, blockRefArb, toolNamesArb)
  .map(([envelope, block, names]): BlockStartEvent => {
    const event: BlockStartEvent = { ...envelope, type: 'block.start', block, ...names };
    return block.kind === 'reasoning' ? { ...event, visibility: 'internal' } : event;
  });

export const blockDeltaArb: fc.Arbitrary<BlockDeltaEvent> = fc
  .tuple(envelopeArb, blockRefArb)
  .chain(([envelope, block]) =>
    deltaFor(block.kind).map((delta): BlockDeltaEvent => ({ ...envelope, type: 'block.delta', block, delta })),
  );

export const blockStopArb: fc.Arbitrary<BlockStopEvent> = fc
  .tuple(envelopeArb, blockRefArb, fc.option(providerMetadataArb, { nil: undefined }))
  .map(([envelope, block, metadata]): BlockStopEvent => {
    const event: BlockStopEvent = { ...envelope, type: 'block.stop', block };
    return metadata === undefined ? event : { ...event, provider_metadata: metadata };
  });

export const streamDoneArb: fc.Arbitrary<StreamDoneEvent> = fc
  .tuple(
    envelopeArb,
    fc.record(
      {
        stop_reason: fc.constantFrom(...STOP_REASONS),
        provider_stop_reason: fc.option(fc.string({ maxLength: 20 })),
        usage: usageArb,
        response_id: fc.string({ maxLength: 30 }),
        provider_model: fc.string({ maxLength: 30 }),
        provider_metadata: providerMetadataArb,
      },
      { requiredKeys: ['stop_reason', 'provider_stop_reason'] },
    ),
  )
  .map(([envelope, fields]): StreamDoneEvent => ({ ...envelope, type: 'stream.done', status: 'completed', ...fields }));

export const streamErrorArb: fc.Arbitrary<StreamErrorEvent> = fc
  .tuple(envelopeArb, fc.constantFrom(...FAILURE_STATUSES), errorInfoArb)
  .map(([envelope, status, error]): StreamErrorEvent => ({ ...envelope, type: 'stream.error', status, error }));

export const heartbeatArb: fc.Arbitrary<StreamHeartbeatEvent> = envelopeArb.map(
  (envelope): StreamHeartbeatEvent => ({ ...envelope, type: 'stream.heartbeat' }),
);

export const warningEventArb: fc.Arbitrary<StreamWarningEvent> = fc
  .tuple(envelopeArb, warningArb)
  .map(([envelope, warning]): StreamWarningEvent => ({ ...envelope, type: 'stream.warning', warning }));

/** Any single event of the contract, every member of the union reachable. */
export const contractEventArb: fc.Arbitrary<ContractEvent> = fc.oneof(
  streamStartArb,
  blockStartArb,
  blockDeltaArb,
  blockStopArb,
  streamDoneArb,
  streamErrorArb,
  heartbeatArb,
  warningEventArb,
);
