import type { Logger } from 'pino';
import { Config, ConfigError } from '../config';

interface Queryable {
  query(sql: string): Promise<unknown>;
}

const FIX = 'set DATABASE_OWNER_URL to the schema owner\'s URL and DATABASE_URL to a role that owns nothing (docs/operations.md, "Database roles")';

/**
 * Issue 26: without DATABASE_OWNER_URL the service serves requests as DATABASE_URL's role; a
 * superuser there may drop the ledger or switch its triggers off, so a slip or an injected statement
 * could too. Warns, and refuses with NODE_ENV=production (ConfigError). Asked once, before the
 * migrations run; the embedded PostgreSQL always gives an owner URL, so `npm start` is never asked.
 */
export async function refuseSuperuserWithoutOwner(dataSource: Queryable, config: Pick<Config, 'nodeEnv'>, logger: Logger): Promise<void> {
  const [me] = (await dataSource.query('SELECT current_user AS role, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user')) as { role: string; superuser: boolean }[];
  if (!me?.superuser) return;
  const what = `DATABASE_URL connects as the superuser ${JSON.stringify(me.role)} and DATABASE_OWNER_URL is not set`;
  if (config.nodeEnv === 'production') {
    throw new ConfigError('DATABASE_URL', '', '', `Invalid configuration: ${what}, which NODE_ENV=production refuses: ${FIX}.`);
  }
  logger.warn({ role: me.role }, `${what}: every request could drop or truncate tables. ${FIX[0]!.toUpperCase()}${FIX.slice(1)}; NODE_ENV=production refuses to start like this.`);
}
