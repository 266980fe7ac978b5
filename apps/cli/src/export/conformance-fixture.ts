import { conformanceRunOptions, normalizeTranscript } from '@llm-stream/adapters';
import { assemble, type AssembledBlock, type ContractEvent, type ProviderName } from '@llm-stream/contract';

/** The three files of a conformance transcript (conformance/transcripts/README.md), as written to disk. */
export interface ConformanceFixture {
  readonly sse: Buffer;
  readonly eventsJson: string;
  readonly expectJson: string;
  readonly events: readonly ContractEvent[];
  /** The outcome the body reaches: `completed`, `failed` or `interrupted`. */
  readonly terminal: string;
}

/**
 * A conformance fixture of a response body: the body itself, the kit's normalization of it (fixed ids and
 * clock, `conformanceRunOptions`, so the file equals what the kit's spec computes) and the `.expect.json` of
 * the outcome it reaches, every field the kit compares filled in. Review the expectation before adding it to
 * the corpus: it records what this build does, which is the point of a regression fixture.
 */
export function conformanceFixture(provider: ProviderName, sse: Buffer, notes: string): ConformanceFixture {
  const { events } = normalizeTranscript(provider, sse, conformanceRunOptions());
  const result = assemble(events);
  const expectation = {
    terminal: result.status,
    blocks: result.blocks.map(expectedBlock),
    stop_reason: result.provider_stop_reason,
    stop_reason_normalized: result.stop_reason,
    error_category: result.error?.category ?? null,
    provider_code: result.error?.provider_code ?? null,
    retryable: result.error?.retryable ?? null,
    usage: result.usage,
    notes,
  };
  return {
    sse,
    // The layout of the kit's golden files (one event a line), so an exported file diffs like a hand-made one.
    eventsJson: `[\n${events.map((event) => JSON.stringify(event)).join(',\n')}\n]\n`,
    expectJson: `${JSON.stringify(expectation, null, 2)}\n`,
    events,
    terminal: result.status,
  };
}

/** A block as `.expect.json` states it: a tool call's text is its raw argument string. */
function expectedBlock(block: AssembledBlock): Record<string, unknown> {
  const text = block.kind === 'tool_call' ? block.raw_arguments : block.text;
  return {
    index: block.index,
    kind: block.kind,
    ...(text !== undefined && { text }),
    ...(block.name !== undefined && { name: block.name }),
    ...(block.call_id !== undefined && { call_id: block.call_id }),
    complete: block.complete,
    ...(block.arguments !== undefined && { arguments: block.arguments }),
    ...(block.signature !== undefined && { signature: block.signature }),
  };
}
