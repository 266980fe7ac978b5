import { CONTRACT_VERSION } from '../contract-version.js';
import { EVENT_TYPES, type ContractEventType } from '../events/contract-event.js';
import { SCHEMA_DEFINITIONS, type JsonSchema } from './schema-definitions.js';

/** The `$defs` entry of each event type (the TypeScript type's name). */
export const EVENT_SCHEMA_NAMES: Readonly<Record<ContractEventType, string>> = {
  'stream.start': 'StreamStartEvent',
  'block.start': 'BlockStartEvent',
  'block.delta': 'BlockDeltaEvent',
  'block.stop': 'BlockStopEvent',
  'stream.done': 'StreamDoneEvent',
  'stream.error': 'StreamErrorEvent',
  'stream.heartbeat': 'StreamHeartbeatEvent',
  'stream.warning': 'StreamWarningEvent',
};

const MAJOR = CONTRACT_VERSION.split('.')[0] ?? '0';

/** Identifies this exact contract version; a URN because it is an identifier, not a download location. */
export const CONTRACT_SCHEMA_ID = `urn:llm-stream:contract:${CONTRACT_VERSION}`;

/** Name of the published file, one per major version: libs/contract/schema/<name>. */
export const CONTRACT_SCHEMA_FILE_NAME = `llm-stream-contract.v${MAJOR}.schema.json`;

/**
 * JSON Schema (draft 2020-12) of one public event, for backends in any language. One definition per event
 * type, selected by `type` (`oneOf`, plus the OpenAPI-style `discriminator` annotation, which Ajv uses for
 * precise errors and other validators may ignore). Closed objects reject unknown properties; only
 * `provider_metadata` is open, because it carries opaque provider data byte-exact.
 *
 * Rules that span events (seq order, block lifecycle) are not expressible here: see `checkInvariants`.
 */
export const CONTRACT_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: CONTRACT_SCHEMA_ID,
  title: `llm-stream contract event v${CONTRACT_VERSION}`,
  description:
    'One event of an llm-stream stream. A stream is stream.start, block events and optional heartbeats and ' +
    'warnings, then exactly one stream.done or stream.error; seq starts at 1 and increases by 1.',
  type: 'object',
  required: ['type'],
  properties: { type: { enum: [...EVENT_TYPES] } },
  discriminator: { propertyName: 'type' },
  oneOf: EVENT_TYPES.map((type) => ({ $ref: `#/$defs/${EVENT_SCHEMA_NAMES[type]}` })),
  $defs: SCHEMA_DEFINITIONS,
};

/** The published file's exact text: what `UPDATE_SCHEMA=1` writes and what the schema test compares. */
export function renderContractSchema(): string {
  return `${JSON.stringify(CONTRACT_SCHEMA, null, 2)}\n`;
}
