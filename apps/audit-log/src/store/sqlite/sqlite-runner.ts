import type { Database, Statement } from 'better-sqlite3';
import type { SqlParam, SqlRunner } from '../sql-backend.js';

/**
 * SqlRunner over one SQLite connection. The shared SQL uses PostgreSQL's `$1` placeholders; they become
 * `@p1` named parameters here (better-sqlite3 binds numbered ones only positionally). Statements are
 * prepared once and cached by their text.
 */
export class SqliteRunner implements SqlRunner {
  private readonly statements = new Map<string, Statement>();

  constructor(protected readonly db: Database) {}

  all<Row>(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
    const statement = this.prepare(sql);
    const bound = named(params);
    if (!statement.reader) {
      statement.run(bound);
      return Promise.resolve([]);
    }
    return Promise.resolve(statement.all(bound) as Row[]);
  }

  run(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    return Promise.resolve(this.prepare(sql).run(named(params)).changes);
  }

  /** A cached statement for SQL already in SQLite's syntax (positional `?`). */
  protected statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private prepare(sql: string): Statement {
    return this.statement(sql.replace(/\$(\d+)/g, '@p$1'));
  }
}

function named(params: readonly SqlParam[]): Record<string, string | number | null> {
  const bound: Record<string, string | number | null> = {};
  params.forEach((value, index) => {
    if (Array.isArray(value)) throw new TypeError('array parameters are a PostgreSQL bulk feature; SQLite binds scalars');
    bound[`p${String(index + 1)}`] = value as string | number | null;
  });
  return bound;
}
