import fc from 'fast-check';
import { contractEventArb, providerMetadataArb } from '../../test/event-arbitraries.js';
import { BLOCK_KINDS } from '../events/block.js';
import type { ContractEvent } from '../events/contract-event.js';
import { ALLOWED_DELTA_KINDS, DELTA_KINDS } from '../events/delta.js';
import { EVENT_SCHEMA_NAMES } from './contract-schema.js';
import { SCHEMA_DEFINITIONS } from './schema-definitions.js';
import { validateEvent } from './validate-event.js';

const base = { stream_id: 'st_1', seq: 3, ts: 1_700_000_000_000 };
const text = { id: 'st_1.b0', index: 0, kind: 'text' } as const;
const reasoning = { id: 'st_1.b1', index: 1, kind: 'reasoning' } as const;

const samples: Readonly<Record<ContractEvent['type'], ContractEvent>> = {
  'stream.start': { ...base, seq: 1, type: 'stream.start', provider: 'anthropic', model: 'claude', tenant: 'acme' },
  'block.start': { ...base, type: 'block.start', block: reasoning, visibility: 'internal' },
  'block.delta': { ...base, type: 'block.delta', block: text, delta: { kind: 'text', text: 'hi' } },
  'block.stop': { ...base, type: 'block.stop', block: text, provider_metadata: { gemini: { thought_signature: 'Cr' } } },
  'stream.done': {
    ...base,
    type: 'stream.done',
    status: 'completed',
    stop_reason: 'end_turn',
    provider_stop_reason: 'stop',
    usage: {
      input_tokens: 3,
      output_tokens: 5,
      reasoning_tokens: 2,
      cache_creation_input_tokens: 9,
      cache_creation: { ephemeral_5m_input_tokens: 9, ephemeral_1h_input_tokens: 0 },
    },
  },
  'stream.error': {
    ...base,
    type: 'stream.error',
    status: 'interrupted',
    error: { category: 'transport_interrupted', retryable: null, provider_code: null, message: 'connection closed' },
  },
  'stream.heartbeat': { ...base, type: 'stream.heartbeat' },
  'stream.warning': { ...base, type: 'stream.warning', warning: { code: 'unknown_event', message: 'skipped' } },
};

/** A sample with one field replaced (or removed with `undefined`), as plain JSON. */
function withField(type: ContractEvent['type'], path: readonly string[], value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(samples[type])) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path[path.length - 1] ?? '';
  if (value === undefined) Reflect.deleteProperty(target, last);
  else target[last] = value;
  return copy;
}

function expectViolation(value: unknown, path: string, message: RegExp): void {
  const result = validateEvent(value);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe('schema_violation');
  expect(result.error.path).toBe(path);
  expect(result.error.message).toMatch(message);
}

describe('validateEvent accepts', () => {
  it.each(Object.values(samples))('a valid $type event, returning the same value', (event) => {
    const result = validateEvent(event);
    expect(result).toEqual({ ok: true, value: event });
    expect(result.ok && result.value).toBe(event);
  });

  it('every event the typed arbitraries generate (the schema allows all the types allow)', () => {
    fc.assert(
      fc.property(contractEventArb, (event) => {
        const result = validateEvent(event);
        if (!result.ok) throw new Error(result.error.message);
      }),
      { numRuns: 2000 },
    );
  });

  it('opaque provider_metadata of any JSON shape inside each provider key', () => {
    fc.assert(
      fc.property(providerMetadataArb, (metadata) => {
        expect(validateEvent({ ...samples['block.stop'], provider_metadata: metadata }).ok).toBe(true);
      }),
    );
  });

  it.each(BLOCK_KINDS.flatMap((kind) => ALLOWED_DELTA_KINDS[kind].map((delta) => [kind, delta] as const)))(
    'a %s block with a %s delta',
    (kind, delta) => {
      expect(validateEvent({ ...samples['block.delta'], block: { ...text, kind }, delta: { kind: delta, text: '' } }).ok).toBe(true);
    },
  );
});

describe('validateEvent rejects', () => {
  it.each([null, 42, 'stream.start', [], true])('a non-object: %p', (value) => {
    expectViolation(value, '', /must be object/);
  });

  it('an object without type, and an unknown type', () => {
    expectViolation({ ...base }, '', /^event: must have the property "type"/);
    expectViolation({ ...base, type: 'stream.finish' }, '/type', /^event: \/type must be one of/);
  });

  it('a missing required field of every event type (property)', () => {
    fc.assert(
      fc.property(
        contractEventArb.chain((event) => {
          const def = SCHEMA_DEFINITIONS[EVENT_SCHEMA_NAMES[event.type]] as { required: string[] };
          return fc.tuple(fc.constant(event), fc.constantFrom(...def.required.filter((key) => key !== 'type')));
        }),
        ([event, key]) => {
          const broken: Record<string, unknown> = { ...event };
          Reflect.deleteProperty(broken, key);
          const result = validateEvent(broken);
          expect(result.ok).toBe(false);
          expect(!result.ok && result.error.message).toContain(`"${key}"`);
        },
      ),
    );
  });

  it('an extra property on every event type (property)', () => {
    fc.assert(
      fc.property(contractEventArb, fc.constantFrom('extra', 'blockId', 'index', 'text', 'done'), (event, key) => {
        const result = validateEvent({ ...event, [key]: 1 });
        expect(result.ok).toBe(false);
        expect(!result.ok && result.error.message).toContain(`must not have the property "${key}"`);
      }),
    );
  });

  it('extra properties in closed nested objects', () => {
    expectViolation(withField('block.delta', ['block', 'name'], 'x'), '/block', /must not have the property "name"/);
    expectViolation(withField('block.delta', ['delta', 'index'], 0), '/delta', /must not have the property "index"/);
    expectViolation(withField('stream.done', ['usage', 'total_tokens'], 8), '/usage', /"total_tokens"/);
    expectViolation(withField('stream.error', ['error', 'stack'], ''), '/error', /"stack"/);
    expectViolation(withField('stream.warning', ['warning', 'raw'], ''), '/warning', /"raw"/);
  });

  it.each([0, -1, 1.5, '3', null])('a bad seq: %p', (seq) => {
    expectViolation(withField('stream.heartbeat', ['seq'], seq), '/seq', /^stream\.heartbeat event: \/seq must be/);
  });

  it.each([-1, 0.5, '1700000000000'])('a bad ts: %p', (ts) => {
    expectViolation(withField('stream.heartbeat', ['ts'], ts), '/ts', /must be/);
  });

  it.each(['', 'st.1', 'st 1', 'x'.repeat(129)])('a stream_id that is not a subject token: %p', (streamId) => {
    expectViolation(withField('stream.heartbeat', ['stream_id'], streamId), '/stream_id', /must match pattern/);
  });

  it('wrong enum values and constants', () => {
    expectViolation(withField('stream.start', ['provider'], 'openai'), '/provider', /must be one of: "openai-chat"/);
    expectViolation(withField('stream.start', ['tenant'], 'a.b'), '/tenant', /pattern/);
    expectViolation(withField('stream.start', ['model'], ''), '/model', /must NOT have fewer than 1/);
    expectViolation(withField('block.delta', ['block', 'kind'], 'image'), '/block/kind', /must be one of/);
    expectViolation(withField('block.delta', ['block', 'index'], -1), '/block/index', />= 0/);
    expectViolation(withField('block.delta', ['delta', 'kind'], 'html'), '/delta/kind', /must be one of/);
    expectViolation(withField('stream.done', ['status'], 'failed'), '/status', /must be "completed"/);
    expectViolation(withField('stream.done', ['stop_reason'], 'stop'), '/stop_reason', /must be one of: "end_turn"/);
    expectViolation(withField('stream.done', ['provider_stop_reason'], 7), '/provider_stop_reason', /string,null/);
    expectViolation(withField('stream.error', ['status'], 'completed'), '/status', /"failed", "interrupted"/);
    expectViolation(withField('stream.error', ['error', 'category'], 'network'), '/error/category', /"rate_limited"/);
    expectViolation(withField('stream.error', ['error', 'retryable'], 'maybe'), '/error/retryable', /boolean,null/);
    expectViolation(withField('stream.error', ['error', 'http_status'], 42), '/error/http_status', />= 100/);
    expectViolation(withField('stream.warning', ['warning', 'code'], 'odd'), '/warning/code', /"unknown_event"/);
    expectViolation(withField('block.start', ['visibility'], 'public'), '/visibility', /must be "internal"/);
  });

  it('usage counters that must be non-zero when present, and negative counts', () => {
    expectViolation(withField('stream.done', ['usage', 'reasoning_tokens'], 0), '/usage/reasoning_tokens', />= 1/);
    expectViolation(withField('stream.done', ['usage', 'cached_input_tokens'], 0), '/usage/cached_input_tokens', />= 1/);
    expectViolation(withField('stream.done', ['usage', 'cache_creation_input_tokens'], 0), '/usage/cache_creation_input_tokens', />= 1/);
    expectViolation(withField('stream.done', ['usage', 'cache_creation'], { ephemeral_5m_input_tokens: 0 }), '/usage/cache_creation/ephemeral_5m_input_tokens', />= 1/);
    expectViolation(withField('stream.done', ['usage', 'cache_creation'], { ephemeral_1h_input_tokens: 1, ephemeral_24h_input_tokens: 3 }), '/usage/cache_creation', /must not have the property "ephemeral_24h_input_tokens"/);
    expectViolation(withField('stream.done', ['usage', 'input_tokens'], -1), '/usage/input_tokens', />= 0/);
  });

  it('provider_metadata whose provider entry is not an object', () => {
    expectViolation(withField('block.stop', ['provider_metadata'], { gemini: 'Cr' }), '/provider_metadata/gemini', /must be object/);
    expectViolation(withField('block.stop', ['provider_metadata'], 'Cr'), '/provider_metadata', /must be object/);
  });

  it('visibility anywhere but on a reasoning block, and its absence on one', () => {
    expectViolation(withField('block.start', ['block'], text), '/block/kind', /must be "reasoning"/);
    expectViolation(withField('block.start', ['visibility'], undefined), '', /must have the property "visibility"/);
  });

  it.each(
    BLOCK_KINDS.flatMap((kind) =>
      DELTA_KINDS.filter((delta) => !ALLOWED_DELTA_KINDS[kind].includes(delta)).map((delta) => [kind, delta] as const),
    ),
  )('a %s block with a %s delta', (kind, delta) => {
    expectViolation(
      { ...samples['block.delta'], block: { ...text, kind }, delta: { kind: delta, text: '' } },
      '/delta/kind',
      /must be one of/,
    );
  });

  it('reports every failing keyword with its path', () => {
    const result = validateEvent(withField('block.delta', ['delta', 'kind'], 'json_text'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.issues[0]).toEqual({ path: '/delta/kind', keyword: 'enum', message: 'must be one of: "text"' });
      expect(result.error.message).toBe('block.delta event: /delta/kind must be one of: "text"');
    }
  });
});
