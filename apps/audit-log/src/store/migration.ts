/**
 * One versioned schema change. Pending versions are applied in order in one transaction (both databases have
 * transactional DDL: a failed migration leaves nothing behind) and recorded in
 * `schema_migrations (version, name, applied_at)`; a version is never edited once released, a new one is
 * added instead. Each dialect has its own list (postgres/migrations, sqlite/migrations) with the same versions; a
 * migration whose SQL is the same on both lives once in portable-migrations and stands in both lists.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** One or more statements, run as a script. */
  readonly sql: string;
}

/** The migrations of `all` that are not in `applied`, in version order; throws on a malformed list. */
export function pendingMigrations(all: readonly Migration[], applied: ReadonlySet<number>): Migration[] {
  const versions = all.map((migration) => migration.version);
  if (versions.some((version, index) => index > 0 && version <= (versions[index - 1] ?? 0))) {
    throw new Error('migrations must be listed in strictly increasing version order');
  }
  return all.filter((migration) => !applied.has(migration.version));
}
