import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { conformanceFixture, exportNotes, exportedBody, finalAttemptFrames } from '@llm-stream/adapters';
import { isProviderName } from '@llm-stream/contract';
import { AuditClient } from '../audit/audit-client.js';
import { UsageError } from '../usage-error.js';

export interface ExportOptions {
  readonly audit: string;
  readonly key: string;
  /** The corpus folder: files go to `<out>/<provider>/` (default: the working directory). */
  readonly out?: string | undefined;
  /** The case name (default: the stream id). */
  readonly name?: string | undefined;
}

/** A case name is a file name in the corpus: what the existing transcripts use. */
const CASE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * `export <stream_id> --audit <url> --key <key> [--out <dir>] [--name <name>]`: writes the stream as a
 * conformance fixture, `<out>/<provider>/<name>.sse` (the stored frames of its final attempt, byte-exact),
 * `.events.json` (the kit's normalization of that body) and `.expect.json` (the outcome it reaches). The frames
 * are the stored ones, redacted as stored (the gateway removes provider keys before anything is published, the
 * audit log credential-shaped values); a key that may not see every frame (audit:read, reasoning withheld)
 * is refused instead of exporting placeholders. Existing files are never overwritten.
 */
export async function exportCommand(streamId: string, options: ExportOptions): Promise<number> {
  const name = options.name ?? streamId;
  if (!CASE_NAME.test(name)) throw new UsageError(`--name must be letters, digits, _ or - (a file name of the corpus), got ${JSON.stringify(name)}`);
  const client = new AuditClient(options.audit, options.key);
  const [{ stream }, raw] = await Promise.all([client.detail(streamId), client.raw(streamId)]);
  const provider = stream.provider;
  if (provider === null || !isProviderName(provider)) throw new UsageError(`stream ${streamId} has no provider protocol the kit knows (${String(provider)})`);
  if (stream.status === 'running') throw new UsageError(`stream ${streamId} is still running: export it once it has ended`);
  const withheld = raw.records.filter((entry) => entry.withheld !== undefined);
  if (withheld.length > 0) {
    throw new UsageError(`the key may not see ${String(withheld.length)} frame(s) of stream ${streamId} (reasoning withheld): export needs an audit:full key`);
  }
  const { attempt, frames } = finalAttemptFrames(raw.records);
  if (frames.length === 0) throw new UsageError(`the final attempt (${String(attempt)}) of stream ${streamId} has no stored frames (the provider sent no body): nothing to export`);
  const redacted = frames.filter((entry) => entry.redacted).map((entry) => entry.raw_seq);
  const sse = exportedBody(frames);
  const fixture = conformanceFixture(provider, sse, exportNotes(streamId, stream.model, redacted, 'llm-stream export'));

  const dir = join(options.out ?? '.', provider);
  await mkdir(dir, { recursive: true });
  const base = join(dir, name);
  const files: [string, string | Uint8Array][] = [
    [`${base}.sse`, fixture.sse],
    [`${base}.events.json`, fixture.eventsJson],
    [`${base}.expect.json`, fixture.expectJson],
  ];
  try {
    for (const [path, content] of files) await writeFile(path, content, { flag: 'wx' });
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unwritable';
    throw new UsageError(`cannot write ${base}.*: ${reason === 'EEXIST' ? 'the case exists already (choose another --name)' : reason}`, { cause: error });
  }
  process.stdout.write(
    `${files.map(([path]) => path).join('\n')}\n` +
      `exported ${String(frames.length)} frames (${String(sse.length)} bytes, attempt ${String(attempt)}), ${String(fixture.events.length)} events, ${fixture.terminal}` +
      `${redacted.length > 0 ? `; frames ${redacted.join(', ')} were redacted when stored` : ''}\n`,
  );
  return 0;
}
