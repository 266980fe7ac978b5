import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '../contract-version.js';
import type { BlockRef } from '../events/block.js';
import { EVENT_TYPES, type ContractEvent, type ContractEventType, type StreamWarning } from '../events/contract-event.js';
import type { Delta } from '../events/delta.js';
import type { StreamErrorInfo } from '../events/stream-error.js';
import type { CacheCreationUsage, Usage } from '../events/usage.js';
import {
  CONTRACT_SCHEMA,
  CONTRACT_SCHEMA_FILE_NAME,
  CONTRACT_SCHEMA_ID,
  EVENT_SCHEMA_NAMES,
  renderContractSchema,
} from './contract-schema.js';
import { SCHEMA_DEFINITIONS } from './schema-definitions.js';

// The published file is generated from CONTRACT_SCHEMA. After changing the schema, regenerate it with
//   UPDATE_SCHEMA=1 npx jest -c libs/contract/jest.config.cjs contract-schema
// (or `npx nx run contract:update-schema`) and commit the file with the change.
const SCHEMA_PATH = join(__dirname, '..', '..', 'schema', CONTRACT_SCHEMA_FILE_NAME);
if (process.env['UPDATE_SCHEMA'] === '1') writeFileSync(SCHEMA_PATH, renderContractSchema());

describe('published schema file', () => {
  it('is exactly the rendered CONTRACT_SCHEMA (regenerate with UPDATE_SCHEMA=1)', () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(renderContractSchema());
  });

  it('is identified by the contract version and named after its major', () => {
    expect(CONTRACT_SCHEMA['$id']).toBe(CONTRACT_SCHEMA_ID);
    expect(CONTRACT_SCHEMA_ID).toContain(CONTRACT_VERSION);
    expect(CONTRACT_SCHEMA_FILE_NAME).toBe(`llm-stream-contract.v${CONTRACT_VERSION.split('.')[0] ?? ''}.schema.json`);
    expect(CONTRACT_SCHEMA['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('has one oneOf branch per event type', () => {
    expect(CONTRACT_SCHEMA['oneOf']).toEqual(EVENT_TYPES.map((type) => ({ $ref: `#/$defs/${EVENT_SCHEMA_NAMES[type]}` })));
  });
});

// --- The property sets of the schema equal those of the TypeScript types ----------------------------------
// `keysOf<T>()(required, optional)` only compiles when the two lists name every required and every optional
// key of T (and nothing else); the test then requires the schema definition to list exactly those keys.

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;
type Covers<Union, List extends readonly unknown[]> = [Exclude<Union, List[number]>] extends [never]
  ? unknown
  : { missing: Exclude<Union, List[number]> };

interface KeyLists {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

function keysOf<T>() {
  return <R extends readonly (RequiredKeys<T> & string)[], O extends readonly (OptionalKeys<T> & string)[]>(
    required: R & Covers<RequiredKeys<T>, R>,
    optional: O & Covers<OptionalKeys<T>, O>,
  ): KeyLists => ({ required, optional });
}

type EventOf<T extends ContractEventType> = Extract<ContractEvent, { type: T }>;
const envelope = ['type', 'stream_id', 'seq', 'ts'] as const;

const EVENT_KEYS: Readonly<Record<ContractEventType, KeyLists>> = {
  'stream.start': keysOf<EventOf<'stream.start'>>()([...envelope, 'provider', 'model', 'tenant'], ['route']),
  'block.start': keysOf<EventOf<'block.start'>>()([...envelope, 'block'], ['name', 'call_id', 'visibility']),
  'block.delta': keysOf<EventOf<'block.delta'>>()([...envelope, 'block', 'delta'], []),
  'block.stop': keysOf<EventOf<'block.stop'>>()([...envelope, 'block'], ['provider_metadata']),
  'stream.done': keysOf<EventOf<'stream.done'>>()(
    [...envelope, 'status', 'stop_reason', 'provider_stop_reason'],
    ['usage', 'response_id', 'provider_model', 'provider_metadata'],
  ),
  'stream.error': keysOf<EventOf<'stream.error'>>()([...envelope, 'status', 'error'], []),
  'stream.heartbeat': keysOf<EventOf<'stream.heartbeat'>>()([...envelope], []),
  'stream.warning': keysOf<EventOf<'stream.warning'>>()([...envelope, 'warning'], []),
};

const NESTED_KEYS: Readonly<Record<string, KeyLists>> = {
  BlockRef: keysOf<BlockRef>()(['id', 'index', 'kind'], []),
  Delta: keysOf<Delta>()(['kind', 'text'], []),
  Usage: keysOf<Usage>()(['input_tokens', 'output_tokens'], ['reasoning_tokens', 'cached_input_tokens', 'cache_creation_input_tokens', 'cache_creation']),
  CacheCreationUsage: keysOf<CacheCreationUsage>()([], ['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens']),
  StreamErrorInfo: keysOf<StreamErrorInfo>()(['category', 'retryable', 'provider_code', 'message'], ['http_status']),
  StreamWarning: keysOf<StreamWarning>()(['code', 'message'], ['provider_event_type']),
};

function definition(name: string): { required: unknown; properties: Record<string, unknown>; additionalProperties: unknown } {
  const def = SCHEMA_DEFINITIONS[name] as { required: unknown; properties: Record<string, unknown>; additionalProperties: unknown } | undefined;
  if (def === undefined) throw new Error(`no $defs/${name}`);
  return def;
}

describe('schema definitions match the TypeScript types', () => {
  const cases = [
    ...EVENT_TYPES.map((type) => [EVENT_SCHEMA_NAMES[type], EVENT_KEYS[type]] as const),
    ...Object.entries(NESTED_KEYS),
  ];

  it.each(cases)('%s: same required and optional properties, closed', (name, keys) => {
    const def = definition(name);
    expect([...((def.required ?? []) as string[])].sort()).toEqual([...keys.required].sort());
    expect(Object.keys(def.properties).sort()).toEqual([...keys.required, ...keys.optional].sort());
    expect(def.additionalProperties).toBe(false);
  });

  it('pins each event definition to its type with a const discriminator', () => {
    for (const type of EVENT_TYPES) {
      expect(definition(EVENT_SCHEMA_NAMES[type]).properties['type']).toEqual({ const: type });
    }
  });

  it('keeps provider_metadata open: any JSON inside each provider key', () => {
    expect(SCHEMA_DEFINITIONS['ProviderMetadata']).toMatchObject({ type: 'object', additionalProperties: { type: 'object' } });
  });
});
