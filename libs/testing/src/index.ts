// Test support: launchers for real servers (nats-server, PostgreSQL), managed child processes, condition
// waits and an exact SSE reader. Plain Node standard library; imported by tests only.
export { findExecutable, natsServerBinary, postgresBinDir, BinaryNotFoundError } from './binaries.js';
export { registerCleanup, type CleanupAction, type CleanupRegistration } from './process-cleanup.js';
export { getFreePort } from './free-port.js';
export { httpStatus } from './http-probe.js';
export {
  startProcess,
  ManagedProcessError,
  type ManagedProcess,
  type ProcessExit,
  type StartProcessOptions,
} from './managed-process.js';
export {
  startNatsServer,
  NatsServerError,
  type NatsServerHandle,
  type StartNatsServerOptions,
} from './nats-server.js';
export { isPortOpen, waitForPort, waitForPortClosed } from './port-probe.js';
export { childPids, descendantPids, hasProcessEnded, isProcessStopped } from './process-tree.js';
export {
  startPostgres,
  PostgresClusterError,
  type PostgresHandle,
  type StartPostgresOptions,
} from './postgres-cluster.js';
export { databaseUrl, freshDatabaseName, type PostgresServer } from './postgres-database.js';
export { startPostgresOrUseExisting, useExistingPostgres } from './postgres-existing.js';
export { listTranscripts, repoRoot, transcriptsDir, RepoLayoutError, type TranscriptFile } from './repo-paths.js';
export { makeTestCertificates, type TestCertificates } from './test-certificates.js';
export { runCommand, runCommandOrThrow, CommandFailedError, type CommandResult, type RunCommandOptions } from './run-command.js';
export { createSseParser, type SseEvent, type SseParser } from './sse-parser.js';
export { collectSse, readSseStream, SseTimeoutError, type CollectSseOptions, type SseSource } from './sse-reader.js';
export { waitFor, WaitForTimeoutError, type WaitForOptions } from './wait-for.js';
export { startOtlpCollector, type CollectedSpan, type OtlpCollector } from './otlp-collector.js';
export { SecretVolume } from './secret-volume.js';
