import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, repoRoot, runCommand, startProcess, waitFor, type CommandResult, type ManagedProcess } from '@llm-stream/testing';
import { storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, rawSubject } from '@llm-stream/contract';
import { API_KEYS, TENANT_OF, sha256Hex } from './api-keys.js';
import type { Pipeline } from './pipeline.js';

/** Audit API keys of tenant acme beside the suites' gateway keys: an auditor's, and one without audit scopes. */
export const AUDIT_KEYS = {
  /** `audit:full`: what `llm-stream export` and `replay` need. */
  full: 'e2e-key-acme-audit-full-5b71c2',
  /** `streams` only: every audit route answers 403. */
  streamsOnly: 'e2e-key-acme-streams-only-0e94ad',
} as const;

/** The audit log as a process on a SQLite file, reading the pipeline's NATS as its own user. */
export interface RunningAuditLog {
  readonly url: string;
  readonly process: ManagedProcess;
  /** The audit store's SQLite file (a test may alter what is stored). */
  readonly sqlitePath: string;
  /** Resolves once the stream (of tenant acme) has ended and the audit log stored every raw record LLM_RAW holds of it. */
  waitForStored(streamId: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startAuditLog(pipeline: Pipeline): Promise<RunningAuditLog> {
  const dir = mkdtempSync(join(tmpdir(), 'llm-stream-e2e-audit-'));
  const port = await getFreePort();
  const sqlitePath = join(dir, 'audit.sqlite');
  const keys = [
    { sha256: sha256Hex(API_KEYS.acme), tenant: TENANT_OF.acme },
    { sha256: sha256Hex(AUDIT_KEYS.full), tenant: TENANT_OF.acme, scopes: ['audit:full'] },
    { sha256: sha256Hex(AUDIT_KEYS.streamsOnly), tenant: TENANT_OF.acme, scopes: ['streams'] },
  ];
  const child = startProcess(process.execPath, [join(repoRoot(), 'apps/audit-log/dist/main.js')], {
    name: 'audit-log',
    env: {
      ...pipeline.natsEnv('audit-log'),
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      AUDIT_SQLITE_PATH: sqlitePath,
      GATEWAY_API_KEYS: JSON.stringify(keys),
    },
  });
  try {
    await child.waitForLine(/"msg":"audit-log ready"/, 30_000);
  } catch (error) {
    await child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `http://127.0.0.1:${String(port)}`;
  return {
    url,
    process: child,
    sqlitePath,
    waitForStored: async (streamId) => {
      await waitFor(
        async () => {
          const rawRecords = await storedMessageCount(pipeline.jsm, STREAM_NAMES.raw, rawSubject(TENANT_OF.acme, streamId));
          const response = await fetch(`${url}/v1/streams/${streamId}`, { headers: { authorization: `Bearer ${AUDIT_KEYS.full}` } });
          if (response.status !== 200) return false;
          const { stream } = (await response.json()) as { stream: { status: string; raw_count: number } };
          return stream.status !== 'running' && stream.raw_count === rawRecords;
        },
        { timeoutMs: 60_000, intervalMs: 200, description: `stream ${streamId} to be stored` },
      );
    },
    stop: async () => {
      await child.stop('SIGTERM', 5_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the built CLI with arguments (exit code and output as values). */
export function runCli(args: readonly string[]): Promise<CommandResult> {
  return runCommand(process.execPath, [join(repoRoot(), 'apps/cli/dist/main.js'), ...args], { timeoutMs: 120_000 });
}

