import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { repoRoot, runCommand, startPostgresOrUseExisting, waitFor, type CommandResult, type ManagedProcess } from '@llm-stream/testing';
import { storedMessageCount } from '@llm-stream/pipeline';
import { STREAM_NAMES, rawSubject } from '@llm-stream/contract';
import { API_KEYS, TENANT_OF, sha256Hex } from './api-keys.js';
import type { Pipeline } from './pipeline.js';
import { startAuditLog as launchAuditLog, type RunningService } from './services.js';

/** Audit API keys of tenant acme beside the suites' gateway keys: an auditor's, and one without audit scopes. */
export const AUDIT_KEYS = {
  /** `audit:full`: what `llm-stream export` and `replay` need. */
  full: 'e2e-key-acme-audit-full-5b71c2',
  /** `streams` only: every audit route answers 403. */
  streamsOnly: 'e2e-key-acme-streams-only-0e94ad',
} as const;

/** The audit stores the suites run on: a SQLite file, or a fresh database of a PostgreSQL server. */
export type AuditStore = 'sqlite' | 'postgres';
export const AUDIT_STORES: readonly AuditStore[] = ['sqlite', 'postgres'];

/** The audit log as a process on its store, reading the pipeline's NATS as its own user. */
export interface RunningAuditLog {
  readonly url: string;
  readonly process: ManagedProcess;
  readonly store: AuditStore;
  /** Rewrites the body of the stream's first stored event of `type`, in the store behind the audit log's back. */
  alterStoredEvent(streamId: string, type: string, change: (event: Record<string, unknown>) => Record<string, unknown>): Promise<void>;
  /** Resolves once the stream (of tenant acme) has ended and the audit log stored every raw record LLM_RAW holds of it. */
  waitForStored(streamId: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startAuditLog(pipeline: Pipeline, store: AuditStore): Promise<RunningAuditLog> {
  const dir = mkdtempSync(join(tmpdir(), 'llm-stream-e2e-audit-'));
  const sqlitePath = join(dir, 'audit.sqlite');
  const postgres = store === 'postgres' ? await startPostgresOrUseExisting() : undefined;
  const databaseUrl = postgres === undefined ? undefined : await postgres.createDatabase();
  const released = async (): Promise<void> => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const keys = [
    { sha256: sha256Hex(API_KEYS.acme), tenant: TENANT_OF.acme },
    { sha256: sha256Hex(AUDIT_KEYS.full), tenant: TENANT_OF.acme, scopes: ['audit:full'] },
    { sha256: sha256Hex(AUDIT_KEYS.streamsOnly), tenant: TENANT_OF.acme, scopes: ['streams'] },
  ];
  let service: RunningService;
  try {
    service = await launchAuditLog({
      natsEnv: pipeline.natsEnv('audit-log'),
      env: {
        ...(databaseUrl === undefined ? { AUDIT_SQLITE_PATH: sqlitePath } : { AUDIT_DATABASE_URL: databaseUrl }),
        GATEWAY_API_KEYS: JSON.stringify(keys),
        LOG_LEVEL: 'info',
      },
    });
  } catch (error) {
    await released();
    throw error;
  }
  const { url, process: child } = service;
  return {
    url,
    process: child,
    store,
    alterStoredEvent: (streamId, type, change) => (databaseUrl === undefined ? alterInSqlite(sqlitePath, streamId, type, change) : alterInPostgres(databaseUrl, streamId, type, change)),
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
      await released();
    },
  };
}

type EventChange = (event: Record<string, unknown>) => Record<string, unknown>;

/** Synchronous (better-sqlite3), as a promise like its PostgreSQL twin. */
function alterInSqlite(path: string, streamId: string, type: string, change: EventChange): Promise<void> {
  const db = new Database(path);
  try {
    const row = db.prepare<[string, string], { seq: number; body: string }>('SELECT seq, body FROM audit_events WHERE stream_id = ? AND type = ? ORDER BY seq LIMIT 1').get(streamId, type);
    if (row === undefined) throw new Error(`no stored ${type} of ${streamId}`);
    db.prepare('UPDATE audit_events SET body = ? WHERE stream_id = ? AND seq = ?').run(JSON.stringify(change(JSON.parse(row.body) as Record<string, unknown>)), streamId, row.seq);
  } finally {
    db.close();
  }
  return Promise.resolve();
}

async function alterInPostgres(url: string, streamId: string, type: string, change: EventChange): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ seq: number; body: string }>('SELECT seq, body FROM audit_events WHERE stream_id = $1 AND type = $2 ORDER BY seq LIMIT 1', [streamId, type]);
    const row = rows[0];
    if (row === undefined) throw new Error(`no stored ${type} of ${streamId}`);
    await client.query('UPDATE audit_events SET body = $1 WHERE stream_id = $2 AND seq = $3', [JSON.stringify(change(JSON.parse(row.body) as Record<string, unknown>)), streamId, row.seq]);
  } finally {
    await client.end();
  }
}

/** Runs the built CLI with arguments (exit code and output as values). */
export function runCli(args: readonly string[]): Promise<CommandResult> {
  return runCommand(process.execPath, [join(repoRoot(), 'apps/cli/dist/main.js'), ...args], { timeoutMs: 120_000 });
}

