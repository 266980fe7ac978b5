/** Each check of a readiness probe: `ok`, or what is wrong (`unreachable`, `draining`, ...). */
export type ReadinessChecks = Readonly<Record<string, string>>;

/** The body of a ready service's `GET /health/ready` (200). */
export interface Readiness {
  readonly status: 'ready';
  readonly checks: ReadinessChecks;
}

/** What a service adds beside its checks, ready or not (the audit log's ingestion lag): detail, not a check. */
export type ReadinessDetail = Readonly<Record<string, unknown>>;

/** The body of a service that is not ready (503): the same checks, so an operator sees which one failed. */
export interface Unreadiness {
  readonly status: 'unavailable';
  readonly checks: ReadinessChecks;
}

/**
 * Thrown by a readiness endpoint while a check fails; the services' exception filter answers 503 with
 * {@link Unreadiness} (not the API error shape: probes, the quick start and operators read the checks).
 */
export class ServiceNotReady extends Error {
  override readonly name = 'ServiceNotReady';

  constructor(
    readonly checks: ReadinessChecks,
    readonly detail: ReadinessDetail = {},
  ) {
    super('the service is not ready');
  }

  get body(): Unreadiness {
    return { ...this.detail, status: 'unavailable', checks: this.checks };
  }
}

/** The readiness body when every check is `ok`; throws {@link ServiceNotReady} otherwise. */
export function readiness<D extends ReadinessDetail>(checks: ReadinessChecks, detail?: D): Readiness & D {
  if (!Object.values(checks).every((value) => value === 'ok')) throw new ServiceNotReady(checks, detail);
  return { ...(detail as D), status: 'ready', checks };
}
