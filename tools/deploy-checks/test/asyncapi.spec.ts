import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ATTEMPT_END_REASONS,
  CONTRACT_SCHEMA,
  CONTRACT_SCHEMA_FILE_NAME,
  CONTRACT_VERSION,
  EVENT_TYPES,
  HEADERS,
  PROVIDERS,
  STREAM_NAMES,
  SUBJECT_ROOTS,
  TRACE_RECORD_KINDS,
  cancelSubject,
  encodeTraceRecord,
  encodeWorkItem,
  eventsSubject,
  gatewayLeaseSubject,
  rawSubject,
  readerSubject,
  workHolderSubject,
  normalizerPresenceSubject,
  encodeNormalizerPresence,
  workSubject,
  type ContractEvent,
  type TraceRecord,
  type TraceRecordKind,
  type TraceStreamInfo,
} from '@llm-stream/contract';
import { DEFAULT_STREAM_OPTIONS, encodeEventMessage, pipelineStreamConfigs } from '@llm-stream/pipeline';
import { repoRoot } from '@llm-stream/testing';
import { AsyncApiSchemas, addressParameters, asyncApiSchemaErrors, errorsOf, loadAsyncApi, type JsonObject } from '../src/asyncapi.js';

const root = repoRoot();
const document = loadAsyncApi(root);
const contractFile = `libs/contract/schema/${CONTRACT_SCHEMA_FILE_NAME}`;
const contractSchema = JSON.parse(readFileSync(join(root, contractFile), 'utf8')) as JsonObject;
const schemas = new AsyncApiSchemas(root, document, { [contractFile]: contractSchema });
const messages = document.components.messages;

function message(name: string): { headers?: JsonObject; payload?: JsonObject } {
  const found = messages[name];
  if (found === undefined) throw new Error(`${name} is not a message of the document`);
  return found;
}

function schemaOf(name: string): JsonObject {
  const found = document.components.schemas[name];
  if (found === undefined) throw new Error(`${name} is not a schema of the document`);
  return found;
}

function enumOf(schema: JsonObject, property: string): unknown[] {
  return ((schema['properties'] as Record<string, { enum?: unknown[] }> | undefined)?.[property]?.enum ?? []).slice().sort();
}

/** The subject each channel carries, as the contract's builders spell it. */
const CHANNEL_SUBJECTS: Readonly<Record<string, string>> = {
  rawTrace: rawSubject('{tenant}', '{streamId}'),
  contractEvents: eventsSubject('{tenant}', '{streamId}'),
  workItems: workSubject('{tenant}', '{streamId}'),
  gatewayLease: gatewayLeaseSubject('{gatewayId}'),
  cancelRequests: cancelSubject('{streamId}'),
  readerNotices: readerSubject('{streamId}'),
  workHolderQueries: workHolderSubject('{streamId}'),
  normalizerPresence: normalizerPresenceSubject('{replicaId}'),
};

describe(`docs/asyncapi.yaml as a document`, () => {
  it('is valid AsyncAPI 3.0.0', () => {
    expect(document.asyncapi).toBe('3.0.0');
    expect(asyncApiSchemaErrors(document)).toEqual([]);
  });

  it('carries the contract version', () => {
    expect(document.info.version).toBe(CONTRACT_VERSION);
  });
});

describe('channels against the subject builders', () => {
  it.each(Object.entries(CHANNEL_SUBJECTS))('%s is %s', (channel, subject) => {
    const described = document.channels[channel];
    expect(described?.address).toBe(subject);
    expect(Object.keys(described?.parameters ?? {}).sort()).toEqual(addressParameters(subject).sort());
  });

  it('every subject root has a channel, and every channel with an address is one of them', () => {
    const addressed = Object.entries(document.channels).filter(([, channel]) => channel.address !== null);
    expect(addressed.map(([name]) => name).sort()).toEqual(Object.keys(CHANNEL_SUBJECTS).sort());
    for (const subjectRoot of Object.values(SUBJECT_ROOTS)) {
      expect(addressed.filter(([, channel]) => channel.address?.startsWith(`${subjectRoot}.`))).toHaveLength(1);
    }
  });

  it('names the JetStream stream that captures each persisted channel, as the services create it', () => {
    const configs = pipelineStreamConfigs(DEFAULT_STREAM_OPTIONS);
    const persisted = Object.values(document.channels).filter((channel) => channel['x-jetstream-stream'] !== undefined);
    expect(persisted.map((channel) => channel['x-jetstream-stream']).sort()).toEqual(Object.values(STREAM_NAMES).sort());
    for (const channel of persisted) {
      const config = configs.find((candidate) => candidate.name === channel['x-jetstream-stream']);
      const prefix = (channel.address ?? '').split('.{')[0] ?? '';
      expect(config?.subjects).toEqual([`${prefix}.>`]);
    }
  });
});

describe('headers and enumerations against the contract', () => {
  it('documents exactly the header names of HEADERS', () => {
    const names = new Set<string>();
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      if (name.endsWith('Headers')) for (const header of Object.keys((schema['properties'] ?? {}))) names.add(header);
    }
    expect([...names].sort()).toEqual(Object.values(HEADERS).sort());
  });

  it('lists the event types, record kinds, attempt end reasons and providers of the code', () => {
    expect(enumOf(schemaOf('EventHeaders'), 'Llm-Event-Type')).toEqual([...EVENT_TYPES].sort());
    const jsonKinds = ((schemaOf('TraceRecord')['oneOf'] as { $ref: string }[]).map(({ $ref }) => {
      const name = $ref.split('/').pop() ?? '';
      return ((schemaOf(name)['properties'] as Record<string, { const?: string }>)['kind'])?.const;
    }));
    expect([...jsonKinds, 'frame'].sort()).toEqual([...TRACE_RECORD_KINDS].sort());
    expect(enumOf(schemaOf('TraceHeaders'), 'Llm-Record')).toEqual(TRACE_RECORD_KINDS.filter((kind) => kind !== 'frame').sort());
    expect(enumOf(schemaOf('FrameHeaders'), 'Llm-Record')).toEqual(['frame', 'frame.partial']);
    expect(enumOf(schemaOf('AttemptEndRecord'), 'reason')).toEqual([...ATTEMPT_END_REASONS].sort());
    expect((schemaOf('Provider')['enum'] as string[]).slice().sort()).toEqual([...PROVIDERS].sort());
  });

  it('takes the event payload from the published contract schema file', () => {
    expect(message('contractEvent').payload).toEqual({ $ref: `../${contractFile}` });
    schemas.compile(message('contractEvent').payload ?? {});
    expect(schemas.referencedFiles).toEqual(new Set([contractFile]));
    expect(contractSchema).toEqual(CONTRACT_SCHEMA);
  });
});

describe('messages made by the real encoders', () => {
  const traceHeaders = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

  it('every event of the conformance transcripts, as encodeEventMessage publishes it', () => {
    const eventHeaders = schemas.compile(message('contractEvent').headers ?? {});
    const eventPayload = schemas.compile(message('contractEvent').payload ?? {});
    let count = 0;
    const dir = join(root, 'conformance/transcripts');
    for (const provider of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      for (const file of readdirSync(join(dir, provider.name)).filter((name) => name.endsWith('.events.json'))) {
        for (const event of JSON.parse(readFileSync(join(dir, provider.name, file), 'utf8')) as ContractEvent[]) {
          const encoded = encodeEventMessage(event, 'acme', traceHeaders);
          expect(encoded.subject).toBe(eventsSubject('acme', event.stream_id));
          if (!eventHeaders(encoded.headers)) throw new Error(`${file}: headers ${errorsOf(eventHeaders)}`);
          if (!eventPayload(JSON.parse(encoded.data))) throw new Error(`${file}: payload ${errorsOf(eventPayload)}`);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  // One record of each kind (the Record type makes a new kind a compile error here), optional fields set.
  const records: Readonly<Record<TraceRecordKind, TraceRecord>> = {
    'stream.open': { kind: 'stream.open', raw_seq: 1, ts: 1_796_000_000_000, stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude', gateway_id: 'gateway-7f9-x2', max_attempts: 3, adapters: 1 },
    'client.request': { kind: 'client.request', raw_seq: 2, ts: 1_796_000_000_001, body: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }] } },
    'attempt.start': { kind: 'attempt.start', raw_seq: 2, ts: 1_796_000_000_001, attempt: 1 },
    'upstream.response': { kind: 'upstream.response', raw_seq: 3, ts: 1_796_000_000_002, attempt: 1, status: 429, content_type: 'application/json', retry_after_ms: 1000, request_id: 'req_1', body: '{}' },
    frame: { kind: 'frame', raw_seq: 4, ts: 1_796_000_000_003, attempt: 1, text: 'event: ping\ndata: {}\n\n' },
    'attempt.end': { kind: 'attempt.end', raw_seq: 5, ts: 1_796_000_000_004, attempt: 1, reason: 'transport_error', detail: 'ECONNRESET' },
    'client.cancel': { kind: 'client.cancel', raw_seq: 6, ts: 1_796_000_000_005, reason: 'client_disconnected' },
    'gateway.lost': { kind: 'gateway.lost', raw_seq: 7, ts: 1_796_000_000_006, gateway_id: 'gateway-7f9-x2' },
    'gateway.shutdown': { kind: 'gateway.shutdown', raw_seq: 8, ts: 1_796_000_000_007, gateway_id: 'gateway-7f9-x2' },
    heartbeat: { kind: 'heartbeat', raw_seq: 9, ts: 1_796_000_000_008 },
  };
  const stream: TraceStreamInfo = { stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude' };
  const partialFrame: TraceRecord = { kind: 'frame', raw_seq: 10, ts: 1_796_000_000_009, attempt: 1, text: 'data: {"ty', partial: true };

  it.each([...Object.values(records), partialFrame].map((record) => [record.kind + ('partial' in record ? '.partial' : ''), record] as const))(
    '%s, as encodeTraceRecord publishes it',
    (_kind, record) => {
      const encoded = encodeTraceRecord(record, stream);
      const described = message(record.kind === 'frame' ? 'frame' : 'traceRecord');
      const headers = schemas.compile(described.headers ?? {});
      const payload = schemas.compile(described.payload ?? {});
      expect({ valid: headers(encoded.headers), errors: errorsOf(headers) }).toEqual({ valid: true, errors: '' });
      const body: unknown = record.kind === 'frame' ? encoded.data : JSON.parse(encoded.data);
      expect({ valid: payload(body), errors: errorsOf(payload) }).toEqual({ valid: true, errors: '' });
    },
  );

  it('a work item, as encodeWorkItem publishes it', () => {
    const validate = schemas.compile(message('workItem').payload ?? {});
    expect(validate(JSON.parse(encodeWorkItem({ stream_id: 'st_1', tenant: 'acme', provider: 'gemini', model: 'gemini-2.5-flash', gateway_id: 'gateway-7f9-x2' })))).toBe(true);
    expect(schemas.compile(message('workItem').headers ?? {})(traceHeaders)).toBe(true);
  });

  it("a normalizer's presence, as encodeNormalizerPresence publishes it", () => {
    const validate = schemas.compile(message('normalizerPresence').payload ?? {});
    expect(validate(JSON.parse(encodeNormalizerPresence({ adapters: 3 })))).toBe(true);
    expect(validate({ adapters: 0 })).toBe(false);
  });

  it('rejects what the code does not send (the schemas are closed)', () => {
    const traceRecord = schemas.compile(message('traceRecord').payload ?? {});
    expect(traceRecord({ ...records.heartbeat, text: 'x' })).toBe(false);
    expect(traceRecord({ kind: 'frame', raw_seq: 1, ts: 1, attempt: 1, text: 'x' })).toBe(false);
    const eventHeaders = schemas.compile(message('contractEvent').headers ?? {});
    expect(eventHeaders({ 'Nats-Msg-Id': 'st_1:1', 'Llm-Stream-Id': 'st_1', 'Llm-Tenant': 'a', 'Llm-Seq': '1', 'Llm-Event-Type': 'stream.start', 'Llm-Extra': 'x' })).toBe(false);
  });
});
