import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listTranscripts, transcriptsDir, type TranscriptFile } from '@llm-stream/testing';
import { PROVIDER_KEY_CANARY } from './api-keys.js';

/** An Anthropic case of our own, far larger than socket buffers, for the slow-consumer test. */
export const LONG_TEXT_CASE = 'e2e_long_text';
const LONG_TEXT_DELTAS = 6_000;
/** An Anthropic answer in which the model repeats the provider key (a prompt injection got it to). */
export const ECHOES_KEY_CASE = 'e2e_echoes_provider_key';

/**
 * A transcripts folder for the replay provider: a copy of conformance/transcripts plus the generated cases
 * above. Returns its path; the caller's temp cleanup removes it with the rest.
 */
export function prepareTranscriptsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'llm-stream-e2e-transcripts-'));
  cpSync(transcriptsDir(), dir, { recursive: true });
  writeFileSync(join(dir, 'anthropic', `${LONG_TEXT_CASE}.sse`), longTextTranscript());
  writeFileSync(
    join(dir, 'anthropic', `${ECHOES_KEY_CASE}.sse`),
    textTranscript([`Your key is ${PROVIDER_KEY_CANARY}`, ', keep it safe.']),
  );
  return dir;
}

/** Every recorded transcript with its bytes. */
export function conformanceTranscripts(): (TranscriptFile & { readonly bytes: Buffer })[] {
  return listTranscripts().map((file) => ({ ...file, bytes: readFileSync(file.ssePath) }));
}

/** The bytes of a case as the replay provider serves it. */
export function transcriptBytes(dir: string, provider: string, caseName: string): Buffer {
  return readFileSync(join(dir, provider, `${caseName}.sse`));
}

/** A complete Anthropic answer of one text block with many deltas of mixed-width UTF-8 (about 2.5 MB). */
export function longTextTranscript(): string {
  const texts = Array.from(
    { length: LONG_TEXT_DELTAS },
    (_unused, n) => `[${String(n)}] Lorem ipsum — пример текста ✓ 🚀 ${'x'.repeat(n % 300)} `,
  );
  return textTranscript(texts);
}

/** An Anthropic answer of one text block, one delta per text. */
export function textTranscript(texts: readonly string[]): string {
  const records = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01E2eGenerated',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (const text of texts) {
    records.push(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
  }
  records.push(
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 90_000 },
    }),
    sse('message_stop', { type: 'message_stop' }),
  );
  return records.join('');
}

/** In the record shapes of the recorded simple_text. */
function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A byte offset in the middle of the `occurrence`-th (1-based) SSE record that contains `marker`. */
export function offsetInsideRecord(body: Buffer, marker: string, occurrence = 1): number {
  let from = 0;
  let at = -1;
  for (let n = 0; n < occurrence; n += 1) {
    at = body.indexOf(marker, from);
    if (at === -1) throw new Error(`the body has fewer than ${String(occurrence)} records with ${marker}`);
    from = at + marker.length;
  }
  return at + Math.floor(marker.length / 2);
}
