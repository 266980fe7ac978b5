/**
 * Whether each ingestion loop can store what it receives. The readiness probe reports not ready while one
 * of them waits for the database: nothing is acked then, and JetStream keeps (and later redelivers) it all.
 */
export class IngestionStatus {
  private readonly unavailable = new Set<string>();

  storeUnavailable(consumer: string): void {
    this.unavailable.add(consumer);
  }

  storeAvailable(consumer: string): void {
    this.unavailable.delete(consumer);
  }

  /** `ok`, or the consumers that wait for the store. */
  check(): string {
    return this.unavailable.size === 0 ? 'ok' : `waiting for the store: ${[...this.unavailable].sort().join(', ')}`;
  }
}
