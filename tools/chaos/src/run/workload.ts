import { readFileSync } from 'node:fs';
import { listTranscripts } from '@llm-stream/testing';
import type { Expectation, Workload } from '../recorded-run.js';
import type { Random } from '../random.js';

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;

/** One client stream to run: its scenario (registered on the replay provider under `key`) and what it expects. */
export interface StreamPlan {
  readonly key: string;
  readonly tenantIndex: number;
  readonly provider: string;
  readonly workload: Workload;
  /** The replay scenario response: a transcript or a synthetic answer, paced like a model. */
  readonly response: Readonly<Record<string, unknown>>;
}

export interface Catalogue {
  readonly transcripts: readonly { readonly provider: string; readonly caseName: string; readonly expect: Expectation }[];
}

/** Every conformance transcript of `root` with its `.expect.json`. */
export function loadCatalogue(transcriptsDir: string): Catalogue {
  return {
    transcripts: listTranscripts(transcriptsDir).map((file) => ({
      provider: file.provider,
      caseName: file.name,
      expect: JSON.parse(readFileSync(file.expectPath, 'utf8')) as Expectation,
    })),
  };
}

/**
 * The next stream of the load: half the time a conformance transcript (every provider, every case, errors,
 * cuts and tool calls included), otherwise a long synthetic answer; frames every 10-50 ms.
 */
export function planStream(random: Random, catalogue: Catalogue, key: string, tenantIndex: number, options: { readonly short?: boolean } = {}): StreamPlan {
  const intervalMs = random.int(10, 50);
  if (options.short !== true && random.next() < 0.5) {
    const transcript = random.pick(catalogue.transcripts);
    return {
      key,
      tenantIndex,
      provider: transcript.provider,
      workload: { kind: 'transcript', ...transcript },
      response: { transcript: { provider: transcript.provider, case: transcript.caseName }, frame_delay_ms: intervalMs },
    };
  }
  const provider = random.pick(PROVIDERS);
  const frames = options.short === true ? random.int(5, 20) : random.int(100, 300);
  return {
    key,
    tenantIndex,
    provider,
    workload: { kind: 'synthetic', provider, frames },
    response: { synthetic: { frames, frame_interval_ms: intervalMs, text_bytes: 48 } },
  };
}

/** The slow reader's stream: a synthetic answer that lasts longer than the reader's 30 s pause. */
export function planSlowReader(key: string, tenantIndex: number): StreamPlan {
  const frames = 1_800;
  return {
    key,
    tenantIndex,
    provider: 'anthropic',
    workload: { kind: 'synthetic', provider: 'anthropic', frames },
    response: { synthetic: { frames, frame_interval_ms: 20, text_bytes: 48 } },
  };
}

/** The provider's own request body; the model name selects the replay scenario. */
export function requestBody(provider: string, model: string): Record<string, unknown> {
  switch (provider) {
    case 'openai-chat':
      return { model, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } };
    case 'openai-responses':
      return { model, input: 'Hi', stream: true };
    case 'anthropic':
      return { model, max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }], stream: true };
    default:
      return { model, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };
  }
}
