import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDERS, type ProviderName } from '@llm-stream/contract';
import { TRANSCRIPTS_DIR } from './replay-process.js';

/** Every provider protocol the contract names: the replay provider serves each. */
export const PROVIDER_NAMES = PROVIDERS;
export type Provider = ProviderName;

/** The path and body a gateway sends to each provider for `model`, as the real APIs expect them. */
export function providerRequest(provider: Provider, model: string): { path: string; body: Record<string, unknown> } {
  switch (provider) {
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        body: { model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] },
      };
    case 'openai-responses':
      return { path: '/v1/responses', body: { model, stream: true, input: 'Hi' } };
    case 'gemini-interactions':
      return { path: '/v1beta/interactions', body: { model, stream: true, input: 'Hi' } };
    case 'anthropic':
      return { path: '/v1/messages', body: { model, stream: true, max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] } };
    case 'gemini':
      return {
        path: `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
        body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
      };
  }
}

/** The auth header each provider reads its key from. */
export function authHeader(provider: Provider, key: string): Record<string, string> {
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      return { authorization: `Bearer ${key}` };
    case 'anthropic':
      return { 'x-api-key': key };
    case 'gemini':
    case 'gemini-interactions':
      return { 'x-goog-api-key': key };
  }
}

/** Every recorded case of every provider, read from conformance/transcripts. */
export function allTranscripts(): { provider: Provider; caseName: string; bytes: Buffer }[] {
  return PROVIDER_NAMES.flatMap((provider) =>
    readdirSync(join(TRANSCRIPTS_DIR, provider))
      .filter((file) => file.endsWith('.sse'))
      .sort()
      .map((file) => ({
        provider,
        caseName: file.slice(0, -'.sse'.length),
        bytes: readFileSync(join(TRANSCRIPTS_DIR, provider, file)),
      })),
  );
}

export function transcript(provider: Provider, caseName: string): Buffer {
  return readFileSync(join(TRANSCRIPTS_DIR, provider, `${caseName}.sse`));
}

/** Record boundaries (byte offsets after each blank line) computed independently of the server's splitter. */
export function recordEnds(bytes: Buffer): number[] {
  const text = bytes.toString('latin1');
  const ends: number[] = [];
  // Each line with its terminator (CRLF tried before CR); an empty line ends the record.
  const line = /([^\r\n]*)(\r\n|\r|\n)/g;
  for (let match = line.exec(text); match !== null; match = line.exec(text)) {
    if (match[1] === '') ends.push(match.index + match[0].length);
  }
  if (ends.at(-1) !== bytes.length) ends.push(bytes.length);
  return ends;
}
