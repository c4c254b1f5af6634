/**
 * Least privilege (issue 14): the service connects as an application role that owns nothing and
 * may only read and write rows; the schema belongs to the owner that runs the migrations. Applied
 * by the owner after every migration run, so tables added later are covered too.
 */

/** Tables the application may only append to and read: the database refuses the rest to everyone (triggers), and to this role by privilege too. */
export const APPEND_ONLY_TABLES = ['ledger_entries', 'audit_log', 'insertion_voids'];

interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

interface Transactional {
  transaction<T>(work: (manager: Queryable) => Promise<T>): Promise<T>;
}

function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * In one transaction, one instance at a time: instances starting together would otherwise update
 * the same catalog rows at once ("tuple concurrently updated").
 */
export async function grantAppRole(owner: Transactional, appRole: string): Promise<void> {
  await owner.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('arcade:grants'))");
    await grant(tx, appRole);
  });
}

async function grant(owner: Queryable, appRole: string): Promise<void> {
  const role = identifier(appRole);
  await owner.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  // What an earlier, broader grant may have left: no TRUNCATE, REFERENCES or TRIGGER anywhere.
  await owner.query(`REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM ${role}`);
  const rows = (await owner.query('SELECT relname FROM pg_class WHERE relname = ANY($1) AND relnamespace = $2::regnamespace', [
    APPEND_ONLY_TABLES,
    'public',
  ])) as { relname: string }[];
  for (const { relname } of rows) await owner.query(`REVOKE UPDATE, DELETE ON ${identifier(relname)} FROM ${role}`);
  // The migration history is the owner's business.
  await owner.query(`REVOKE ALL ON schema_migrations FROM ${role}`);
  // Nobody but the owner creates objects (already so from PostgreSQL 15; older servers allowed everyone).
  await owner.query('SAVEPOINT revoke_create');
  try {
    await owner.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  } catch (error) {
    // An owner that is not the schema's owner may not change this; the app role still owns nothing.
    if ((error as { code?: string }).code !== '42501') throw error;
    await owner.query('ROLLBACK TO SAVEPOINT revoke_create');
  }
}
