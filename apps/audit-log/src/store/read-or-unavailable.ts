import { ApiError } from '../errors/api-error.js';
import type { AuditRepository } from './audit-repository.js';

/**
 * Runs a read of the store; a failure of the database itself (it does not answer a ping) is a 503
 * `unavailable` (try again), any other failure stays what it is (a 500, unless it is already an ApiError).
 */
export async function readOrUnavailable<T>(repository: AuditRepository, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const answers = await repository.ping().then(
      () => true,
      () => false,
    );
    if (!answers) throw new ApiError(503, 'unavailable', 'the audit store is unavailable; try again');
    throw error;
  }
}
