import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { STREAM_NAMES, SUBJECT_ROOTS } from '@llm-stream/contract';

export interface PipelineStreamOptions {
  /** JetStream replicas of every stream (3 on a production cluster, 1 on a single server). */
  readonly replicas: number;
  /** How long raw traces are kept (audit and replay rely on them). */
  readonly rawMaxAgeMs: number;
  /** How long contract events are kept: the window in which a client can resume a stream. */
  readonly eventsMaxAgeMs: number;
  /** Window in which a republished message with the same Nats-Msg-Id is dropped. */
  readonly duplicateWindowMs: number;
  readonly storage?: 'file' | 'memory';
}

export const DEFAULT_STREAM_OPTIONS: PipelineStreamOptions = {
  replicas: 1,
  rawMaxAgeMs: 24 * 3_600_000,
  eventsMaxAgeMs: 24 * 3_600_000,
  duplicateWindowMs: 2 * 60_000,
  storage: 'file',
};

/** The three JetStream streams of the pipeline (see docs/pipeline.md). */
export function pipelineStreamConfigs(options: PipelineStreamOptions): StreamConfig[] {
  const storage = options.storage === 'memory' ? StorageType.Memory : StorageType.File;
  const common = {
    storage,
    num_replicas: options.replicas,
    duplicate_window: nanos(options.duplicateWindowMs),
    discard: DiscardPolicy.Old,
    allow_direct: true,
  };
  return [
    {
      ...common,
      name: STREAM_NAMES.raw,
      subjects: [`${SUBJECT_ROOTS.raw}.>`],
      retention: RetentionPolicy.Limits,
      max_age: nanos(options.rawMaxAgeMs),
    },
    {
      ...common,
      name: STREAM_NAMES.events,
      subjects: [`${SUBJECT_ROOTS.events}.>`],
      retention: RetentionPolicy.Limits,
      max_age: nanos(options.eventsMaxAgeMs),
    },
    {
      ...common,
      name: STREAM_NAMES.work,
      subjects: [`${SUBJECT_ROOTS.work}.>`],
      retention: RetentionPolicy.Workqueue,
      max_age: nanos(Math.max(options.rawMaxAgeMs, options.eventsMaxAgeMs)),
    },
  ] as StreamConfig[];
}

/**
 * Creates the pipeline's streams, or brings an existing one's limits up to date: the operator step
 * (`llm-stream provision`, see provisionPipeline), and what a service does itself on a server without
 * authorization (development), so the order in which they start does not matter.
 */
export async function ensurePipelineStreams(jsm: JetStreamManager, options: PipelineStreamOptions = DEFAULT_STREAM_OPTIONS): Promise<void> {
  for (const config of pipelineStreamConfigs(options)) await ensureStream(jsm, config);
}

/** Creates one stream, or updates what may change of an existing one (not its retention or storage). */
export async function ensureStream(jsm: JetStreamManager, config: StreamConfig): Promise<void> {
  if (!(await streamExists(jsm, config.name))) {
    try {
      await jsm.streams.add(config);
      return;
    } catch (error) {
      // Another service may have created it between the two calls; anything else is real.
      if (!(await streamExists(jsm, config.name))) throw error;
    }
  }
  const { name, retention: _retention, storage: _storage, ...updatable } = config;
  await jsm.streams.update(name, updatable);
}

/** The names of the pipeline's streams that do not exist (a service under authorization only checks them). */
export async function missingPipelineStreams(jsm: JetStreamManager): Promise<string[]> {
  const missing: string[] = [];
  for (const name of Object.values(STREAM_NAMES)) if (!(await streamExists(jsm, name))) missing.push(name);
  return missing;
}

async function streamExists(jsm: JetStreamManager, name: string): Promise<boolean> {
  try {
    await jsm.streams.info(name);
    return true;
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return false;
    throw error;
  }
}
