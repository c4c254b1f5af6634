/**
 * Least privilege (issues 14 and 26): the service connects as an application role that owns
 * nothing and may only read, insert and update rows, and delete only what the retention job purges;
 * the schema belongs to the owner that runs the migrations. Applied by the owner after every
 * migration run, so tables added later are covered too (without DELETE unless listed here).
 */

/** Tables the application may only append to and read: the database refuses the rest to everyone (triggers), and to this role by privilege too. */
const APPEND_ONLY_TABLES = ['ledger_entries', 'audit_log', 'insertion_voids', 'insertions', 'developer_ledger_entries'];

/** Views the application only reads (developer_earnings: the developer ledger's earning entries, written only by the developer append). */
const READ_ONLY_VIEWS = ['developer_earnings'];

/**
 * Append-only tables whose rows a use case locks (a void locks its insertion): SELECT … FOR UPDATE
 * needs an UPDATE privilege on some column, so the role gets it on the key, which a trigger still
 * refuses to change.
 */
const LOCKED_APPEND_ONLY_TABLES: Record<string, string> = { insertions: 'id' };

/**
 * The only tables the application deletes from: what the retention job purges (src/modules/retention),
 * an idempotency claim given up, a password-reset link a newer one voids, a game's thumbnail its developer removed (CONTRACT §17.2),
 * and the recovery codes two-factor replaces or turns off (CONTRACT §20), and e-mail-change links a newer one voids (CONTRACT §20),
 * and the job queue's runners: an instance's own row at a clean stop, a dead instance's when a survivor reaps it (docs/webhooks.md).
 */
const DELETABLE_TABLES = ['idempotency_keys', 'login_sessions', 'email_verification_tokens', 'password_reset_tokens', 'game_thumbnails', 'login_challenges', 'two_factor_recovery_codes', 'email_change_tokens', 'job_runners'];

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
  await owner.query(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  // What an earlier, broader grant may have left: no DELETE (but below), TRUNCATE, REFERENCES or TRIGGER anywhere.
  await owner.query(`REVOKE DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM ${role}`);
  for (const relname of await existing(owner, DELETABLE_TABLES)) await owner.query(`GRANT DELETE ON ${identifier(relname)} TO ${role}`);
  for (const relname of await existing(owner, APPEND_ONLY_TABLES)) {
    // Revoking the table's UPDATE revokes its columns' too.
    await owner.query(`REVOKE UPDATE ON ${identifier(relname)} FROM ${role}`);
    const lockColumn = LOCKED_APPEND_ONLY_TABLES[relname];
    if (lockColumn) await owner.query(`GRANT UPDATE (${identifier(lockColumn)}) ON ${identifier(relname)} TO ${role}`);
  }
  for (const relname of await existing(owner, READ_ONLY_VIEWS)) await owner.query(`REVOKE INSERT, UPDATE ON ${identifier(relname)} FROM ${role}`);
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

/** Those of `tables` that exist (a grant runs after every migration run, also on an older schema). */
async function existing(owner: Queryable, tables: string[]): Promise<string[]> {
  const rows = (await owner.query('SELECT relname FROM pg_class WHERE relname = ANY($1) AND relnamespace = $2::regnamespace', [tables, 'public'])) as { relname: string }[];
  return rows.map((row) => row.relname);
}
