import { NORMALIZER_PRESENCE_INTERVAL_MS } from '@llm-stream/contract';

/** A replica not heard for this long is gone (three presence intervals). */
const FORGET_AFTER_MS = 3 * NORMALIZER_PRESENCE_INTERVAL_MS;
/** With no normalizer heard this long after the start, none runs: nothing stores other events than this session's. */
const SETTLE_MS = 2 * NORMALIZER_PRESENCE_INTERVAL_MS;

/**
 * Which adapters builds the running normalizer replicas run, from their presence (core NATS, every
 * NORMALIZER_PRESENCE_INTERVAL_MS). The gateway's own session computes the events the log will hold only if the
 * replica that stores them runs the same build; which replica that is, nobody knows in advance, so this gateway
 * serves its own clients from its own session only while every replica heard lately runs its build, and only
 * once it could have heard them (a gateway just started serves from the log until then).
 */
export class NormalizerBuilds {
  /** Replica id -> its build and when it was last heard (ms). */
  private readonly replicas = new Map<string, { readonly build: number; readonly heardAt: number }>();

  constructor(
    private readonly ownBuild: number,
    private readonly startedAt: number,
  ) {}

  /**
   * A replica's presence: whether it runs another build than this gateway, and whether it is new here (never
   * heard, or forgotten: silent for three intervals).
   */
  heard(replicaId: string, build: number, now: number): { readonly otherBuild: boolean; readonly isNew: boolean } {
    const previous = this.replicas.get(replicaId);
    const isNew = previous === undefined || now - previous.heardAt > FORGET_AFTER_MS;
    this.replicas.set(replicaId, { build, heardAt: now });
    return { otherBuild: build !== this.ownBuild, isNew };
  }

  /** Whether this gateway's session may serve its clients now (see the class comment). */
  sessionServes(now: number): boolean {
    let heardAny = false;
    for (const [replicaId, { build, heardAt }] of this.replicas) {
      if (now - heardAt > FORGET_AFTER_MS) {
        this.replicas.delete(replicaId);
        continue;
      }
      if (build !== this.ownBuild) return false;
      heardAny = true;
    }
    return heardAny || now - this.startedAt >= SETTLE_MS;
  }
}
