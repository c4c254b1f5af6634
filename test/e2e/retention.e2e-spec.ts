import { CronExpression, SchedulerRegistry } from '@nestjs/schedule';
import { Client } from 'pg';
import { loadConfig } from '../../src/config';
import { RetentionService } from '../../src/modules/retention/retention.service';
import { createTestApp, TestApp } from '../support/app';
import { MailService } from '../../src/modules/mail';
import { createDeveloper, createWorldApp, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Issue 14: "Nothing ever deletes old idempotency keys, expired sessions or used/expired e-mail
 * tokens." The purge takes its clock as a parameter: the tests pass instants from the future and
 * read real PostgreSQL back.
 */
describe('retention: the daily purge', () => {
  let t: TestApp;
  let retention: RetentionService;
  let slug: string;

  beforeAll(async () => {
    t = await createWorldApp();
    retention = t.app.nest.get(RetentionService);
    const dev = await createDeveloper(t);
    slug = (await publishGame(t, dev, { coinsPerCredit: 1 })).slug;
  });
  afterAll(async () => t.close());

  const count = async (sql: string, params: unknown[] = []) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

  it('old idempotency keys were never deleted: older than IDEMPOTENCY_RETENTION_DAYS (30) they go, a replay inside the window still works', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const { sessionId } = await startSession(t, player, slug);
    const key = idempotencyKey('kept');
    const insert = () => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });
    const first = await insert().expect(200);
    const caller = `account:${player.accountId}`;

    // Day 29: still inside the window.
    const early = await retention.purge(new Date(Date.now() + 29 * DAY));
    expect(early.ran).toBe(true);
    expect(await count('idempotency_keys WHERE caller = $1 AND key = $2', [caller, key])).toBe(1);
    const replay = await insert().expect(200);
    expect(replay.body).toEqual({ ...first.body, replayed: true });

    // Day 31: gone, with every other key of the run.
    const late = await retention.purge(new Date(Date.now() + 31 * DAY));
    expect(late.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await count('idempotency_keys')).toBe(0);
    // The insertion itself and its money stay: only the key is forgotten.
    expect(await count('insertions WHERE id = $1', [first.body.insertionId])).toBe(1);
  });

  it('is scheduled once a day (03:00 UTC) by @nestjs/schedule', () => {
    const job = t.app.nest.get(SchedulerRegistry).getCronJob('retention-purge');
    expect(String(job.cronTime.source)).toBe(CronExpression.EVERY_DAY_AT_3AM);
    const next = job.nextDate().toJSDate();
    expect(next.getUTCHours()).toBe(3);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(DAY);
  });

  it('keeps idempotency keys at least 7 days: IDEMPOTENCY_RETENTION_DAYS below 7 stops start-up', () => {
    expect(() => loadConfig({ IDEMPOTENCY_RETENTION_DAYS: '6' })).toThrow(/IDEMPOTENCY_RETENTION_DAYS/);
    expect(loadConfig({ IDEMPOTENCY_RETENTION_DAYS: '7' }).idempotencyRetentionDays).toBe(7);
    expect(loadConfig({}).idempotencyRetentionDays).toBe(30);
  });

  it('expired and revoked login sessions were never deleted: now they are, live ones stay', async () => {
    const kept = await signUpPlayer(t);
    const gone = await signUpPlayer(t);
    await t.http().post('/auth/logout').set('Cookie', gone.cookie).expect(204);
    expect(await count('login_sessions WHERE account_id = $1 AND revoked_at IS NOT NULL', [gone.accountId])).toBe(1);

    const today = await retention.purge(new Date());
    expect(today.loginSessions).toBeGreaterThanOrEqual(1);
    expect(await count('login_sessions WHERE account_id = $1', [gone.accountId])).toBe(0);
    await t.http().get('/api/me').set('Cookie', kept.cookie).expect(200);

    // A year on, every session of today has expired.
    await retention.purge(new Date(Date.now() + 366 * DAY));
    expect(await count('login_sessions WHERE account_id = $1', [kept.accountId])).toBe(0);
    await t.http().get('/api/me').set('Cookie', kept.cookie).expect(401);
  });

  it('used and expired e-mail verification tokens were never deleted: now they are, live ones stay', async () => {
    const mail = jest.spyOn(t.app.nest.get(MailService), 'send');
    const used = await signUpPlayer(t);
    const waiting = await signUpPlayer(t);
    const link = mail.mock.calls.map(([m]) => m).find((m) => m.to === used.email)!.text;
    mail.mockRestore();
    const token = /token=([A-Za-z0-9_-]+)/.exec(link)![1];
    await t.http().post('/auth/verify-email').send({ token }).expect(200);
    const tokensOf = (accountId: string) => count('email_verification_tokens WHERE account_id = $1', [accountId]);
    expect(await tokensOf(used.accountId)).toBe(1);

    const today = await retention.purge(new Date());
    expect(today.emailVerificationTokens).toBeGreaterThanOrEqual(1);
    expect(await tokensOf(used.accountId)).toBe(0);
    expect(await tokensOf(waiting.accountId)).toBe(1);
    // Three days later the 48-hour token has expired.
    await retention.purge(new Date(Date.now() + 3 * DAY));
    expect(await tokensOf(waiting.accountId)).toBe(0);
  });

  it('deletes in batches of the given size until nothing is left', async () => {
    for (let i = 0; i < 5; i++) await t.http().post('/auth/logout').set('Cookie', (await signUpPlayer(t)).cookie).expect(204);
    const report = await retention.purge(new Date(), { batchSize: 2 });
    expect(report.loginSessions).toBe(5);
    expect(await count('login_sessions WHERE revoked_at IS NOT NULL')).toBe(0);
  });
});

describe('retention with several instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const revokedSessions = async () => (await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_sessions WHERE revoked_at IS NOT NULL')).rows[0]!.n;
  const signOutSome = async (n: number) => {
    for (let i = 0; i < n; i++) await a.http().post('/auth/logout').set('Cookie', (await signUpPlayer(a)).cookie).expect(204);
  };

  it('one instance purges at a time: while the advisory lock is held elsewhere, a purge does nothing', async () => {
    await signOutSome(3);
    const holder = new Client({ connectionString: a.databaseUrl });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('arcade:retention'))");
      const skipped = await b.app.nest.get(RetentionService).purge(new Date());
      expect(skipped).toEqual({ ran: false, idempotencyKeys: 0, loginSessions: 0, emailVerificationTokens: 0, passwordResetTokens: 0, emailChangeTokens: 0, loginChallenges: 0 });
      expect(await revokedSessions()).toBe(3);
      await holder.query("SELECT pg_advisory_unlock(hashtext('arcade:retention'))");
      expect((await b.app.nest.get(RetentionService).purge(new Date())).loginSessions).toBe(3);
    } finally {
      await holder.end();
    }
  });

  it('two instances purging at once delete each row once and fail nothing', async () => {
    await signOutSome(4);
    const reports = await Promise.all([a, b].map((app) => app.app.nest.get(RetentionService).purge(new Date(), { batchSize: 1 })));
    expect(reports.reduce((sum, r) => sum + r.loginSessions, 0)).toBe(4);
    expect(await revokedSessions()).toBe(0);
  });
});
