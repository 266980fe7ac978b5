import type { ProviderName } from '@llm-stream/contract';

/** How the bytes of a stream response go out: the fault-injection knobs (README.md, "Scenarios"). */
export interface Delivery {
  /** Write the bytes in pieces of exactly this size (shorter only where the stream pauses); null: one write per record. */
  readonly chunkBytes: number | null;
  /** Wait between two SSE records. */
  readonly frameDelayMs: number;
  /** Wait after the headers, before the first body byte. */
  readonly firstByteDelayMs: number;
  /** Close the connection, with no clean end, once exactly this many body bytes are written. */
  readonly cutAfterBytes: number | null;
  /** After this many records, send only keep-alives until the client goes away. */
  readonly stallAfterFrames: number | null;
  readonly stallPingIntervalMs: number;
  /** After the last record: end the response (`close`) or keep it open with nothing more (`hang`). */
  readonly end: 'close' | 'hang';
}

/** A transcript case; `provider` null means the provider of the endpoint that was called. */
export interface TranscriptRef {
  readonly provider: ProviderName | null;
  readonly caseName: string;
}

/** A generated, valid, completed stream with `frames` time-stamped text deltas. */
export interface SyntheticSpec {
  readonly frames: number;
  readonly frameIntervalMs: number;
  /** Minimum bytes of text per delta; the time stamp is padded up to it. */
  readonly textBytes: number;
}

/** One planned answer of a scenario. */
export type ScenarioResponse =
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly body: string;
      /** Lower-case names; includes content-type and retry-after when they apply. */
      readonly headers: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'transcript'; readonly transcript: TranscriptRef; readonly delivery: Delivery }
  | { readonly kind: 'synthetic'; readonly synthetic: SyntheticSpec; readonly delivery: Delivery };

export interface ScenarioDefinition {
  /** Caller-chosen id, or null to have one generated. */
  readonly id: string | null;
  readonly responses: readonly [ScenarioResponse, ...ScenarioResponse[]];
}

/** Scenario ids start with `sc_` so a bare id can be used as the model name. */
export const SCENARIO_ID = /^sc_[A-Za-z0-9_-]{1,64}$/;

/** The model name that selects a scenario: `scenario:<id>` or the bare `sc_…` id. Null for a transcript case. */
export function scenarioIdOfModel(model: string): string | null {
  if (model.startsWith('scenario:')) return model.slice('scenario:'.length);
  return model.startsWith('sc_') ? model : null;
}
