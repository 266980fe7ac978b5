import { conformanceFixture, exportNotes, exportedBody, finalAttemptFrames } from '@llm-stream/adapters';
import { isProviderName } from '@llm-stream/contract';
import type { RawTrace, StreamDetail } from '@llm-stream/contract';

export interface FixtureFile {
  readonly name: string;
  readonly type: string;
  readonly content: Uint8Array | string;
}

/** Why a stream cannot be exported (the reasons `llm-stream export` gives). */
export interface ExportRefusal {
  readonly code: 'no_protocol' | 'running' | 'withheld' | 'no_frames';
  readonly message: string;
}

/**
 * The files `llm-stream export <id>` writes, for the stream on screen: `<provider>/<id>.sse` (the final
 * attempt's frames, byte-exact), `.events.json` and `.expect.json`, computed by the same library code.
 */
export function fixtureFiles(detail: StreamDetail, trace: RawTrace): { ok: true; files: FixtureFile[] } | { ok: false; error: ExportRefusal } {
  const { stream } = detail;
  const { provider } = stream;
  if (provider === null || !isProviderName(provider)) return { ok: false, error: { code: 'no_protocol', message: `no provider protocol the kit knows (${String(provider)})` } };
  if (stream.status === 'running') return { ok: false, error: { code: 'running', message: 'still running: export it once it has ended' } };
  const withheld = trace.records.filter((entry) => entry.withheld !== undefined).length;
  if (withheld > 0) return { ok: false, error: { code: 'withheld', message: `this key may not see ${String(withheld)} frame(s) (reasoning withheld): export needs an audit:full key` } };
  const { attempt, frames } = finalAttemptFrames(trace.records);
  if (frames.length === 0) return { ok: false, error: { code: 'no_frames', message: `the final attempt (${String(attempt)}) has no stored frames: nothing to export` } };
  const redacted = frames.filter((entry) => entry.redacted).map((entry) => entry.raw_seq);
  const fixture = conformanceFixture(provider, exportedBody(frames), exportNotes(stream.stream_id, stream.model, redacted, 'the llm-stream console'));
  const base = `${provider}/${stream.stream_id}`;
  return {
    ok: true,
    files: [
      { name: `${base}.sse`, type: 'text/event-stream', content: fixture.sse },
      { name: `${base}.events.json`, type: 'application/json', content: fixture.eventsJson },
      { name: `${base}.expect.json`, type: 'application/json', content: fixture.expectJson },
    ],
  };
}

/** Offers each file as a download (a browser cannot create folders: the provider is the file name's prefix). */
export function download(files: readonly FixtureFile[]): void {
  for (const file of files) {
    const url = URL.createObjectURL(new Blob([file.content as BlobPart], { type: file.type }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = file.name.replace('/', '__');
    anchor.click();
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 10_000);
  }
}
