import { Inject, Injectable } from '@nestjs/common';
import type { AuditRepository } from '../store/audit-repository.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';

/** Whether the database answers (within a short timeout). */
@Injectable()
export class StoreHealth {
  constructor(@Inject(AUDIT_REPOSITORY) private readonly repository: AuditRepository) {}

  async check(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => {
        resolve('timeout');
      }, 2_000);
    });
    try {
      return await Promise.race([this.repository.ping().then(() => 'ok'), timeout]);
    } catch {
      return 'unreachable';
    } finally {
      clearTimeout(timer);
    }
  }
}
