import { isProviderName, parseEventLine, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { normalizeTranscript } from '@llm-stream/adapters';
import { UsageError } from '../usage-error.js';

/** `--provider` values: a provider protocol, or `contract` for a file of contract events (NDJSON). */
export type InputFormat = ProviderName | 'contract';

export function parseInputFormat(value: string | undefined): InputFormat {
  if (value === undefined) throw new UsageError('missing --provider <openai-chat|openai-responses|anthropic|gemini|contract>');
  if (value === 'contract' || isProviderName(value)) return value;
  throw new UsageError(`unknown provider ${JSON.stringify(value)} (expected openai-chat, openai-responses, anthropic, gemini or contract)`);
}

export interface NormalizeOptions {
  readonly streamId?: string;
  readonly tenant?: string;
  readonly model?: string;
  readonly maxFrameBytes?: number;
}

/** The contract events of an input file: normalized from a provider body, or read from NDJSON. */
export function loadEvents(format: InputFormat, bytes: Uint8Array, options: NormalizeOptions): ContractEvent[] {
  if (format !== 'contract') return normalizeTranscript(format, bytes, options).events;
  const events: ContractEvent[] = [];
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseEventLine(line);
    if (!parsed.ok) throw new UsageError(`line ${String(index + 1)}: ${parsed.error.message}`);
    events.push(parsed.value);
  });
  return events;
}
