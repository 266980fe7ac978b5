import { assertNever, isProviderName, parseEventLine, PROVIDERS, type ContractEvent, type ProviderName } from '@llm-stream/contract';
import { normalizeTranscript } from '@llm-stream/adapters';
import { UsageError } from '../usage-error.js';

/** `--provider` values: a provider protocol, or `contract` for a file of contract events (NDJSON). */
export type InputFormat = ProviderName | 'contract';

export function parseInputFormat(value: string | undefined): InputFormat {
  if (value === undefined) throw new UsageError(`missing --provider <${[...PROVIDERS, 'contract'].join('|')}>`);
  if (value === 'contract' || isProviderName(value)) return value;
  throw new UsageError(`unknown provider ${JSON.stringify(value)} (expected ${PROVIDERS.join(', ')} or contract)`);
}

export interface NormalizeOptions {
  readonly streamId?: string;
  readonly tenant?: string;
  readonly model?: string;
  readonly maxFrameBytes?: number;
  /** Receive time of each record (`--deterministic`: the conformance kit's clock). */
  readonly clock?: () => number;
}

/** The contract events of an input file: normalized from a provider body, or read from NDJSON. */
export function loadEvents(format: InputFormat, bytes: Uint8Array, options: NormalizeOptions): ContractEvent[] {
  if (format !== 'contract') return recognized(format, normalizeTranscript(format, bytes, options).events);
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

/**
 * A body in another protocol than --provider names is not an interrupted stream of that provider: when every
 * record was an unknown event type, nothing opened and nothing ended it, the input is refused (exit 2).
 */
function recognized(provider: ProviderName, events: ContractEvent[]): ContractEvent[] {
  let unknown = 0;
  for (const event of events) {
    switch (event.type) {
      case 'stream.warning':
        if (event.warning.code === 'unknown_event') unknown += 1;
        break;
      case 'stream.error':
        if (event.error.category !== 'transport_interrupted') return events;
        break;
      case 'stream.start':
      case 'stream.heartbeat':
        break;
      case 'block.start':
      case 'block.delta':
      case 'block.stop':
      case 'stream.done':
        return events;
      default:
        return assertNever(event);
    }
  }
  if (unknown === 0) return events;
  throw new UsageError(`nothing in the input is an event of the ${provider} protocol (every record had an unknown event type): is --provider right?`);
}
