import type { Pool, PoolClient } from 'pg';
import type { SqlParam, SqlRunner } from '../sql-backend.js';

/** SqlRunner over a pool (each query on any free connection) or one checked-out client (a transaction). */
export class PostgresRunner implements SqlRunner {
  constructor(private readonly target: Pool | PoolClient) {}

  async all<Row>(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
    const result = await this.target.query(sql, params as unknown[]);
    return result.rows as Row[];
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    const result = await this.target.query(sql, params as unknown[]);
    return result.rowCount ?? 0;
  }
}
