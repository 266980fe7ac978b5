import { BLOCK_KINDS, type BlockKind } from '../events/block.js';
import { ALLOWED_DELTA_KINDS, DELTA_KINDS } from '../events/delta.js';
import { WARNING_CODES } from '../events/contract-event.js';
import type { JsonValue } from '../events/provider-metadata.js';
import { PROVIDERS } from '../events/provider.js';
import { STOP_REASONS } from '../events/stop-reason.js';
import { ERROR_CATEGORIES, FAILURE_STATUSES } from '../events/stream-error.js';
import { ROUTE_NAME_PATTERN } from '../events/route-name.js';
import { STREAM_ID_PATTERN, TENANT_PATTERN } from '../nats/subjects.js';

/** A JSON Schema object, kept as plain JSON so the published file is exactly `JSON.stringify` of it. */
export type JsonSchema = Readonly<Record<string, JsonValue>>;

/**
 * The `$defs` of the contract schema, built from the same constant lists as the TypeScript types so an
 * added stop reason or category cannot be forgotten here. Definition names equal the TypeScript type names,
 * which lets code generators in other languages produce matching names.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const nonNegativeInteger: JsonSchema = { type: 'integer', minimum: 0 };
const nullableString: JsonSchema = { type: ['string', 'null'] };

/** The fields every event carries (see `EventEnvelope`). */
const envelope: Readonly<Record<string, JsonSchema>> = {
  stream_id: ref('StreamId'),
  seq: { type: 'integer', minimum: 1, description: '1 for stream.start, then +1 per event in the full-truth log.' },
  ts: { ...nonNegativeInteger, description: 'Receive time of the input that caused the event, ms since the epoch.' },
};
const envelopeRequired = ['type', 'stream_id', 'seq', 'ts'];

function eventDefinition(
  type: string,
  description: string,
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[],
  extra: JsonSchema = {},
): JsonSchema {
  return {
    type: 'object',
    description,
    required: [...envelopeRequired, ...required],
    properties: { type: { const: type }, ...envelope, ...properties },
    additionalProperties: false,
    ...extra,
  };
}

/**
 * `if block.kind is <kind>`. The `required`s make the condition false for an event without a block or kind,
 * so such an event fails on its missing field, not on a confusing conditional rule.
 */
function ifBlockKind(kind: BlockKind): JsonSchema {
  return {
    required: ['block'],
    properties: { block: { type: 'object', required: ['kind'], properties: { kind: { const: kind } } } },
  };
}

/** One `if/then` per block kind: a delta's kind must be one the block kind accepts (ALLOWED_DELTA_KINDS). */
const deltaKindRules: JsonSchema[] = BLOCK_KINDS.map((blockKind) => ({
  if: ifBlockKind(blockKind),
  then: { properties: { delta: { type: 'object', properties: { kind: { enum: [...ALLOWED_DELTA_KINDS[blockKind]] } } } } },
}));

export const SCHEMA_DEFINITIONS: Readonly<Record<string, JsonSchema>> = {
  StreamId: {
    type: 'string',
    pattern: STREAM_ID_PATTERN.source,
    description: 'A NATS subject token: letters, digits, "_" and "-".',
  },
  BlockRef: {
    type: 'object',
    description: 'index: 0-based position in the final content (order of first appearance); id: derived from stream and index.',
    required: ['id', 'index', 'kind'],
    properties: { id: { type: 'string', minLength: 1 }, index: nonNegativeInteger, kind: { enum: [...BLOCK_KINDS] } },
    additionalProperties: false,
  },
  Delta: {
    type: 'object',
    required: ['kind', 'text'],
    properties: { kind: { enum: [...DELTA_KINDS] }, text: { type: 'string' } },
    additionalProperties: false,
  },
  ProviderMetadata: {
    type: 'object',
    description: 'Opaque provider data keyed by provider, carried byte-exact. Open: any JSON inside each key.',
    additionalProperties: { type: 'object' },
  },
  Usage: {
    type: 'object',
    description:
      'reasoning_tokens, cached_input_tokens, cache_creation_input_tokens and cache_creation are present only when non-zero (cache_creation*: since 1.2.0).',
    required: ['input_tokens', 'output_tokens'],
    properties: {
      input_tokens: nonNegativeInteger,
      output_tokens: nonNegativeInteger,
      reasoning_tokens: { type: 'integer', minimum: 1 },
      cached_input_tokens: { type: 'integer', minimum: 1 },
      cache_creation_input_tokens: { type: 'integer', minimum: 1 },
      cache_creation: ref('CacheCreationUsage'),
    },
    additionalProperties: false,
  },
  CacheCreationUsage: {
    type: 'object',
    description: 'Cache writes per time-to-live, as the provider reported them (Anthropic usage.cache_creation); at least one count is non-zero.',
    properties: {
      ephemeral_5m_input_tokens: nonNegativeInteger,
      ephemeral_1h_input_tokens: nonNegativeInteger,
    },
    anyOf: [
      { required: ['ephemeral_5m_input_tokens'], properties: { ephemeral_5m_input_tokens: { type: 'integer', minimum: 1 } } },
      { required: ['ephemeral_1h_input_tokens'], properties: { ephemeral_1h_input_tokens: { type: 'integer', minimum: 1 } } },
    ],
    additionalProperties: false,
  },
  StreamErrorInfo: {
    type: 'object',
    description: 'retryable is null where nobody can know (an interruption, a cancellation).',
    required: ['category', 'retryable', 'provider_code', 'message'],
    properties: {
      category: { enum: [...ERROR_CATEGORIES] },
      retryable: { type: ['boolean', 'null'] },
      provider_code: nullableString,
      message: { type: 'string' },
      http_status: { type: 'integer', minimum: 100, maximum: 599 },
    },
    additionalProperties: false,
  },
  StreamWarning: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { enum: [...WARNING_CODES] },
      message: { type: 'string' },
      provider_event_type: { type: 'string' },
    },
    additionalProperties: false,
  },
  StreamStartEvent: eventDefinition(
    'stream.start',
    'The gateway accepted the stream and assigned its id.',
    {
      provider: { enum: [...PROVIDERS] },
      model: { type: 'string', minLength: 1 },
      tenant: { type: 'string', pattern: TENANT_PATTERN.source },
      route: {
        type: 'string',
        pattern: ROUTE_NAME_PATTERN.source,
        description: 'The gateway route the stream went through (since 1.1.0): a protocol name for its default route, else a configured route.',
      },
    },
    ['provider', 'model', 'tenant'],
  ),
  BlockStartEvent: eventDefinition(
    'block.start',
    'Opens a block. visibility is present ("internal") exactly on reasoning blocks.',
    {
      block: ref('BlockRef'),
      name: { type: 'string' },
      call_id: { type: 'string' },
      visibility: { const: 'internal' },
    },
    ['block'],
    {
      allOf: [
        { if: ifBlockKind('reasoning'), then: { required: ['visibility'] } },
        // Stated as "visibility implies reasoning" (not as an `else`) so an event that lacks its block fails
        // on the missing block, and a text block with visibility fails with the readable path /block/kind.
        {
          if: { required: ['visibility'] },
          then: { properties: { block: { type: 'object', properties: { kind: { const: 'reasoning' } } } } },
        },
      ],
    },
  ),
  BlockDeltaEvent: eventDefinition(
    'block.delta',
    'Appends an immutable fragment to an open block; the delta kind must suit the block kind.',
    { block: ref('BlockRef'), delta: ref('Delta') },
    ['block', 'delta'],
    { allOf: deltaKindRules },
  ),
  BlockStopEvent: eventDefinition(
    'block.stop',
    'Closes a block; no delta may follow for it.',
    { block: ref('BlockRef'), provider_metadata: ref('ProviderMetadata') },
    ['block'],
  ),
  StreamDoneEvent: eventDefinition(
    'stream.done',
    'The provider confirmed a normal end. Terminal.',
    {
      status: { const: 'completed' },
      stop_reason: { enum: [...STOP_REASONS] },
      provider_stop_reason: nullableString,
      usage: ref('Usage'),
      response_id: { type: 'string' },
      provider_model: { type: 'string' },
      provider_metadata: ref('ProviderMetadata'),
    },
    ['status', 'stop_reason', 'provider_stop_reason'],
  ),
  StreamErrorEvent: eventDefinition(
    'stream.error',
    'The stream ended without a confirmed result. Terminal. Open blocks are not stopped.',
    { status: { enum: [...FAILURE_STATUSES] }, error: ref('StreamErrorInfo') },
    ['status', 'error'],
  ),
  StreamHeartbeatEvent: eventDefinition('stream.heartbeat', 'Keep-alive while the upstream is silent. Not progress.', {}, []),
  StreamWarningEvent: eventDefinition(
    'stream.warning',
    'Something was skipped or looked odd. Optional for clients.',
    { warning: ref('StreamWarning') },
    ['warning'],
  ),
};
