#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { conformanceRunOptions } from '@llm-stream/adapters';
import { isValidStreamId, isValidTenant } from '@llm-stream/contract';
import { assembleCommand } from './commands/assemble-command.js';
import { AuditApiError } from './audit/audit-api-error.js';
import type { StreamListQuery } from './audit/audit-client.js';
import { checkStreamsCommand } from './commands/check-streams-command.js';
import { exportCommand } from './commands/export-command.js';
import { hashKeyCommand } from './commands/hash-key-command.js';
import { natsConfigCommand } from './commands/nats-config-command.js';
import { natsCredentialsCommand } from './commands/nats-credentials-command.js';
import { provisionCommand } from './commands/provision-command.js';
import { replayCommand } from './commands/replay-command.js';
import type { NormalizeOptions } from './commands/load-events.js';
import { normalizeCommand } from './commands/normalize-command.js';
import { verifyCommand } from './commands/verify-command.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage: llm-stream <command> [options] <file>
  normalize --provider <openai-chat|openai-responses|anthropic|gemini|gemini-interactions|contract>
            <file> [--stream-id <id>] [--tenant <t>] [--model <m>] [--max-frame-bytes <n>] [--deterministic]
                        print the contract events, one JSON object per line (--deterministic: the
                        conformance kit's ids and clock, so the lines equal a transcript's .events.json)
  assemble  --provider <...> <file>   print the assembled result as one JSON object
  verify    [--partial] [--projection] <events.ndjson>
                        print every broken invariant; exit 1 if there is any
  hash-key  <api-key>   print the SHA-256 digest to put in GATEWAY_API_KEYS
  nats-credentials --tenants <t,...>
                        print fresh random passwords of every NATS user, as JSON (keep them in a Secret)
  nats-config --credentials <file> [--tls-cert <pem> --tls-key <pem> [--tls-ca <pem>]] [--output <file>]
                        print (or write) the nats-server configuration of accounts, users and permissions (and TLS)
  provision --credentials <file>
                        create the JetStream streams (platform and tenants) on NATS_URL: the operator step
  export <stream_id> --audit <url> --key <key> [--out <dir>] [--name <name>]
                        write a stored stream as a conformance fixture: <out>/<provider>/<name>.sse (the
                        frames of its final attempt, byte-exact), .events.json and .expect.json (needs an
                        audit:full key; existing files are never overwritten)
  replay    --audit <url> --key <key> [--from <time>] [--to <time>] [--provider <p>] [--status <s>]
                        re-normalize the stored raw traces with this build's adapters; print each stream whose
                        outcome changes and totals per provider; exit 1 when any changes (audit:full key)
  check-streams [--wait <seconds>]
                        exit 0 when the pipeline's streams exist as NATS_USER sees them (creates nothing);
                        --wait: ask again every second until they do (a service pod's init container)
<file> may be - for standard input. Exit codes: 0 ok, 1 invariants broken (check-streams: streams not there;
replay: an outcome changed), 2 bad usage, unreadable input or a refusal of the audit API (401, 403, 404), 3 the
audit API does not answer or fails.`;

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      provider: { type: 'string' },
      'stream-id': { type: 'string' },
      tenant: { type: 'string' },
      model: { type: 'string' },
      'max-frame-bytes': { type: 'string' },
      partial: { type: 'boolean', default: false },
      projection: { type: 'boolean', default: false },
      deterministic: { type: 'boolean', default: false },
      tenants: { type: 'string' },
      credentials: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'tls-ca': { type: 'string' },
      wait: { type: 'string' },
      output: { type: 'string' },
      audit: { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      name: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      status: { type: 'string' },
    },
  });
  switch (command) {
    case 'normalize':
      return normalizeCommand(values.provider, onePositional(positionals, 'file'), normalizeOptions(values));
    case 'assemble':
      return assembleCommand(values.provider, onePositional(positionals, 'file'), normalizeOptions(values));
    case 'verify':
      return verifyCommand(onePositional(positionals, 'events file'), { partial: values.partial, projection: values.projection });
    case 'hash-key':
      return hashKeyCommand(onePositional(positionals, 'api key'));
    case 'nats-credentials':
      return natsCredentialsCommand(values.tenants);
    case 'nats-config':
      return natsConfigCommand({ credentials: values.credentials, tlsCert: values['tls-cert'], tlsKey: values['tls-key'], tlsCa: values['tls-ca'], output: values.output });
    case 'provision':
      return provisionCommand(values.credentials, process.env);
    case 'export':
      return exportCommand(onePositional(positionals, 'stream_id'), { ...auditOptions(values), out: values.out, name: values.name });
    case 'replay':
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
      return replayCommand({ ...auditOptions(values), query: replayQuery(values) });
    case 'check-streams':
      return checkStreamsCommand(values.wait, process.env);
    case 'help':
    case '--help':
    case undefined:
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)} (normalize, assemble, verify, hash-key, nats-credentials, nats-config, provision, export, replay, check-streams, help)`);
  }
}

function onePositional(positionals: readonly string[], what: string): string {
  const [first, ...extra] = positionals;
  if (first === undefined) throw new UsageError(`missing <${what}>`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  return first;
}

/** `--audit <url> --key <key>`: where the audit query API is, and the key to ask it with. */
function auditOptions(values: { audit?: string | undefined; key?: string | undefined }): { audit: string; key: string } {
  if (values.audit === undefined) throw new UsageError('missing --audit <url> (the audit log\'s base URL, e.g. http://audit-log:8080)');
  if (!URL.canParse(values.audit) || !/^https?:$/.test(new URL(values.audit).protocol)) {
    throw new UsageError(`--audit must be an http(s) URL, got ${JSON.stringify(values.audit)}`);
  }
  if (values.key === undefined || values.key === '') throw new UsageError('missing --key <key> (an audit API key with the audit:full scope)');
  return { audit: values.audit, key: values.key };
}

/** The stream filters of `replay`, passed to the audit API's list (which checks their values). */
function replayQuery(values: { from?: string | undefined; to?: string | undefined; provider?: string | undefined; status?: string | undefined }): StreamListQuery {
  if (values.status === 'running') throw new UsageError('--status running: a running stream has no outcome to compare yet');
  return {
    ...(values.from !== undefined && { from: values.from }),
    ...(values.to !== undefined && { to: values.to }),
    ...(values.provider !== undefined && { provider: values.provider }),
    ...(values.status !== undefined && { status: values.status }),
  };
}

function normalizeOptions(values: {
  'stream-id'?: string | undefined;
  tenant?: string | undefined;
  model?: string | undefined;
  'max-frame-bytes'?: string | undefined;
  deterministic: boolean;
}): NormalizeOptions {
  const streamId = values['stream-id'];
  if (streamId !== undefined && !isValidStreamId(streamId)) {
    throw new UsageError(`--stream-id must be letters, digits, _ or - (it becomes a NATS subject token), got ${JSON.stringify(streamId)}`);
  }
  const tenant = values.tenant;
  if (tenant !== undefined && !isValidTenant(tenant)) {
    throw new UsageError(`--tenant must be letters, digits, _ or - (at most 64), got ${JSON.stringify(tenant)}`);
  }
  const maxFrameBytes = values['max-frame-bytes'];
  if (maxFrameBytes !== undefined && !/^[1-9]\d*$/.test(maxFrameBytes)) {
    throw new UsageError(`--max-frame-bytes must be a positive integer (got ${JSON.stringify(maxFrameBytes)})`);
  }
  return {
    ...(values.deterministic && conformanceRunOptions()),
    ...(values['stream-id'] !== undefined && { streamId: values['stream-id'] }),
    ...(values.tenant !== undefined && { tenant: values.tenant }),
    ...(values.model !== undefined && { model: values.model }),
    ...(maxFrameBytes !== undefined && { maxFrameBytes: Number(maxFrameBytes) }),
  };
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof AuditApiError) {
    process.stderr.write(`llm-stream: ${error.message}\n`);
    process.exitCode = error.code === 'unavailable' ? 3 : 2;
  } else {
    reportFailure(error);
  }
}

function reportFailure(error: unknown): void {
  // parseArgs reports unknown options with ERR_PARSE_ARGS_* codes: those are usage errors too.
  const usage = error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`llm-stream: ${usage ? message : `internal error: ${message}`}\n`);
  process.exitCode = usage ? 2 : 3;
}
