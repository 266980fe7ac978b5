import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { JsonLogger } from '@llm-stream/service-kit';
import { AuditConfig } from '../config/audit-config.js';
import type { AuditRepository } from './audit-repository.js';
import { openRepository } from './open-repository.js';
import { AUDIT_REPOSITORY } from './store-tokens.js';

/** How long the start waits for the database before giving up (the process exits non-zero). */
const STARTUP_DEADLINE_MS = 60_000;

/**
 * The store, migrated before anything uses it: the migrations run at every start (applying only the
 * versions the database does not have yet). A database that is not up yet is retried for a minute.
 */
@Global()
@Module({
  providers: [
    {
      provide: AUDIT_REPOSITORY,
      inject: [AuditConfig, JsonLogger],
      useFactory: async (config: AuditConfig, logger: JsonLogger): Promise<AuditRepository> => {
        const repository = openRepository({
          databaseUrl: config.AUDIT_DATABASE_URL,
          sqlitePath: config.AUDIT_SQLITE_PATH,
          poolSize: config.AUDIT_PG_POOL_SIZE,
          onIdleError: (error) => {
            logger.warn('database connection lost', { error: error.message });
          },
        });
        const deadline = Date.now() + STARTUP_DEADLINE_MS;
        for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
          try {
            const applied = await repository.migrate();
            logger.info('store ready', { backend: repository.backend, migrations_applied: applied.join(',') });
            return repository;
          } catch (error) {
            if (Date.now() + wait > deadline) throw error;
            logger.warn('store not ready, retrying', { backend: repository.backend, error: error instanceof Error ? error.message : String(error) });
            await delay(wait);
          }
        }
      },
    },
  ],
  exports: [AUDIT_REPOSITORY],
})
export class StoreModule implements OnApplicationShutdown {
  constructor(@Inject(AUDIT_REPOSITORY) private readonly repository: AuditRepository) {}

  /** Closed after the ingestion loops stopped (Nest shuts modules down in reverse order of their imports' use). */
  async onApplicationShutdown(): Promise<void> {
    await this.repository.close();
  }
}
