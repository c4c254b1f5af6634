import { generate } from 'otplib';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import {
  adminCookie,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createApiKey,
  createDeveloper,
  createGame,
  createWorldApp,
  logIn,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
} from '../support/factories';
import { fundPlayer, getBoard, paidSession, postInitials, postScore } from '../support/play';

const CONFIRM = 'DELETE';

/** CONTRACT §20 `POST /api/me/delete`: the account erased at once, the books kept; §18 the admin's search; 3 login failures per 15 minutes here. */
describe('deleting my account', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_LOGIN_PER_EMAIL: '3/900' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const del = (cookie: string, body: object) => t.http().post('/api/me/delete').set('Cookie', cookie).send(body);
  const accountRow = async (accountId: string) =>
    (
      await t.db.query<{ email: string | null; display_name: string | null; password_hash: string | null; erased_at: Date | null }>(
        'SELECT email, display_name, password_hash, erased_at FROM accounts WHERE id = $1',
        [accountId],
      )
    ).rows[0]!;
  const count = async (sql: string, values: unknown[]) => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) rows`, values)).rows[0]!.n);
  const adminSearch = async (query: string) =>
    (await t.http().get(`/api/admin/users?query=${encodeURIComponent(query)}`).set('Cookie', await adminCookie(t)).expect(200)).body.users as { id: string }[];

  it('204 and the cookie cleared: personal data, sessions, links and two-factor data gone; coins forfeited; the books, boards and PlayerRefs kept', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const ada = await signUpVerifiedPlayer(t, { displayName: 'Ada Gone' });
    const phone = await logIn(t, ada.email, ada.password);
    await fundPlayer(t, ada, 30);
    const { sessionId, insertionId } = await paidSession(t, ada, game.slug);
    const score = await postScore(t, ada, sessionId, 777);
    expect(score.status).toBe(200);
    if (score.body.needsInitials) expect((await postInitials(t, ada, sessionId, score.body.scoreId, 'ADA')).status).toBe(200);
    await t.http().post('/auth/password-reset').send({ email: ada.email }).expect(202);
    await t.http().post('/api/me/email').set('Cookie', ada.cookie).send({ email: `new-${ada.email}`, currentPassword: ada.password }).expect(202);
    // Two-factor on, with its recovery codes, and a sign-in waiting for its code.
    const setup = await t.http().post('/api/me/2fa/setup').set('Cookie', ada.cookie).expect(200);
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(Date.now() / 1000) });
    await t.http().post('/api/me/2fa/enable').set('Cookie', ada.cookie).send({ code }).expect(200);
    expect((await t.http().post('/auth/login').send({ email: ada.email, password: ada.password }).expect(200)).body.twoFactorRequired).toBe(true);
    for (const table of ['two_factor_recovery_codes', 'login_challenges']) expect(await count(`SELECT 1 FROM ${table} WHERE account_id = $1`, [ada.accountId])).toBeGreaterThan(0);
    const boardBefore = (await getBoard(t, game.slug).expect(200)).body;
    const refBefore = (await t.db.query('SELECT player_ref FROM play_sessions WHERE id = $1', [sessionId])).rows[0]!.player_ref;
    const auditBefore = await count('SELECT 1 FROM audit_log WHERE target_id = $1 OR actor_id::text = $1', [ada.accountId]);
    const ledgerBefore = await count('SELECT 1 FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1', [ada.playerId]);
    expect(auditBefore).toBeGreaterThan(0);

    const res = await del(ada.cookie, { currentPassword: ada.password, confirm: CONFIRM }).expect(204);

    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies).toEqual([expect.stringMatching(/^auth_session=; .*Max-Age=0/)]);
    const row = await accountRow(ada.accountId);
    expect(row).toMatchObject({ email: null, display_name: null, password_hash: null });
    expect(row.erased_at).toBeInstanceOf(Date);
    for (const table of ['login_sessions', 'email_verification_tokens', 'password_reset_tokens', 'email_change_tokens', 'login_challenges', 'two_factor_recovery_codes']) {
      expect([table, await count(`SELECT 1 FROM ${table} WHERE account_id = $1`, [ada.accountId])]).toEqual([table, 0]);
    }
    expect(await count('SELECT 1 FROM two_factor_settings WHERE account_id = $1 AND (secret IS NOT NULL OR pending_secret IS NOT NULL)', [ada.accountId])).toBe(0);
    // Every session answers 401 on its next request.
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(401);
    await t.http().get('/api/me').set('Cookie', phone).expect(401);
    expect((await t.http().post('/auth/login').send({ email: ada.email, password: ada.password }).expect(401)).body.error).toBe('UNAUTHENTICATED');

    // The wallet: 28 coins forfeited in one entry; the balance is the ledger's sum, 0.
    const wallet = await t.db.query<{ balance: string; sum: string }>(
      'SELECT w.balance, (SELECT sum(delta) FROM ledger_entries WHERE wallet_id = w.id) AS sum FROM wallets w WHERE w.player_id = $1',
      [ada.playerId],
    );
    expect(wallet.rows[0]).toEqual({ balance: '0', sum: '0' });
    const forfeit = await t.db.query(
      "SELECT l.delta FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 AND l.kind = 'forfeit'",
      [ada.playerId],
    );
    expect(forfeit.rows).toEqual([{ delta: -28 }]);
    expect(await count('SELECT 1 FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1', [ada.playerId])).toBe(ledgerBefore + 1);
    expect((await checkInvariants(t.db)).violations).toEqual([]);

    // The books stay, tied to the erased id: the insertion, its earning, the audit rows (one more: the erasure, nothing personal in it).
    expect(await count('SELECT 1 FROM insertions WHERE id = $1 AND player_id = $2', [insertionId, ada.playerId])).toBe(1);
    expect(await count('SELECT 1 FROM developer_earnings WHERE insertion_id = $1', [insertionId])).toBe(1);
    const erasure = await t.db.query("SELECT actor_id, target_id, details FROM audit_log WHERE action = 'user.erase' AND target_id = $1", [ada.accountId]);
    expect(erasure.rows).toEqual([{ actor_id: ada.accountId, target_id: ada.accountId, details: { forfeitedCoins: 28, revokedKeys: 0, removedWebhooks: 0 } }]);
    expect(await count('SELECT 1 FROM audit_log WHERE target_id = $1 OR actor_id::text = $1', [ada.accountId])).toBe(auditBefore + 1);
    expect(JSON.stringify(erasure.rows)).not.toContain(ada.email);
    // The audit view copes with an erased actor.
    const audit = await t.http().get(`/api/admin/audit?actorId=${ada.accountId}`).set('Cookie', await adminCookie(t)).expect(200);
    expect(audit.body.entries).toEqual([expect.objectContaining({ action: 'user.erase', actorId: ada.accountId, actorEmail: null })]);
    const auditPage = await t.http().get('/admin').set('Cookie', await adminCookie(t)).expect(200);
    expect(auditPage.text).toContain('Erased account');

    // Boards keep the entry with its initials; the PlayerRef stays.
    expect((await getBoard(t, game.slug).expect(200)).body).toEqual(boardBefore);
    expect((await t.db.query('SELECT player_ref FROM play_sessions WHERE id = $1', [sessionId])).rows[0]!.player_ref).toBe(refBefore);

    // The admin's search finds nothing, by e-mail or display name.
    expect((await adminSearch(ada.email)).map((u) => u.id)).not.toContain(ada.accountId);
    expect((await adminSearch('Ada Gone')).map((u) => u.id)).not.toContain(ada.accountId);
    expect((await adminSearch('a')).map((u) => u.id)).not.toContain(ada.accountId);

    // The admin's user actions find nothing to act on (404, nothing written).
    for (const action of ['verify-email', 'ban', 'unban']) {
      const refused = await t.http().post(`/api/admin/users/${ada.accountId}/${action}`).set('Cookie', await adminCookie(t)).send(action === 'ban' ? { reason: 'gone' } : {});
      expect([action, refused.status, refused.body.error]).toEqual([action, 404, 'NOT_FOUND']);
    }
    expect(await count('SELECT 1 FROM accounts WHERE id = $1 AND (banned_at IS NOT NULL OR email_verified_at IS NOT NULL)', [ada.accountId])).toBe(0);
    // Nor can an admin put coins into the dead wallet or freeze it: 404, the ledger unchanged.
    const entries = await count('SELECT 1 FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [ada.accountId]);
    const credit = await t.http().post(`/api/admin/wallets/${ada.accountId}/credits`).set('Cookie', await adminCookie(t)).send({ coins: 5, reason: 'gone', idempotencyKey: `erased-${ada.accountId}` });
    expect([credit.status, credit.body.error]).toEqual([404, 'NOT_FOUND']);
    for (const action of ['freeze', 'unfreeze']) {
      const refused = await t.http().post(`/api/admin/wallets/${ada.accountId}/${action}`).set('Cookie', await adminCookie(t)).send({});
      expect([action, refused.status, refused.body.error]).toEqual([action, 404, 'NOT_FOUND']);
    }
    expect(await count('SELECT 1 FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [ada.accountId])).toBe(entries);
    expect(await count('SELECT 1 FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1 AND w.frozen_at IS NOT NULL', [ada.accountId])).toBe(0);

    // The e-mail signs up again, as a new account.
    const again = await signUpPlayer(t, { email: ada.email, password: 'a fresh passphrase' });
    expect(again.accountId).not.toBe(ada.accountId);
    await logIn(t, ada.email, 'a fresh passphrase');
    expect((await accountRow(ada.accountId)).email).toBeNull();
  });

  it("a developer without a published game: its API keys are revoked and refused, each audited, its webhook endpoints deleted, and unpublished games stay the developer's", async () => {
    const dev = await createDeveloper(t);
    const draft = await createGame(t, dev);
    const live = await createApiKey(t, dev, 'live');
    const test = await createApiKey(t, dev, 'test');
    for (const url of ['https://hooks.example.com/a', 'https://hooks.example.com/b']) {
      await t.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url, events: ['insertion.voided'] }).expect(201);
    }
    const other = await createDeveloper(t);
    await t.http().post('/api/portal/webhooks').set('Cookie', other.cookie).send({ url: 'https://hooks.example.com/c', events: ['insertion.voided'] }).expect(201);
    await t.http().get('/api/v1/sessions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${live.key}`).expect(404);

    await del(dev.cookie, { currentPassword: dev.password, confirm: CONFIRM }).expect(204);

    for (const key of [live.key, test.key]) {
      const refused = await t.http().get('/api/v1/sessions/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${key}`).expect(401);
      expect(refused.body.error).toBe('UNAUTHENTICATED');
    }
    expect(await count('SELECT 1 FROM api_keys WHERE developer_id = $1 AND revoked_at IS NULL', [dev.developerId])).toBe(0);
    expect(await count("SELECT 1 FROM audit_log WHERE action = 'key.revoke' AND actor_id = $1", [dev.accountId])).toBe(2);
    expect(await count("SELECT 1 FROM audit_log WHERE action = 'user.erase' AND target_id = $1 AND details = $2", [dev.accountId, { forfeitedCoins: 0, revokedKeys: 2, removedWebhooks: 2 }])).toBe(1);
    expect(await count('SELECT 1 FROM webhook_endpoints WHERE developer_id = $1 AND (deleted_at IS NULL OR enabled)', [dev.developerId])).toBe(0);
    expect(await count('SELECT 1 FROM webhook_endpoints WHERE developer_id = $1 AND deleted_at IS NULL AND enabled', [other.developerId])).toBe(1);
    expect(await count('SELECT 1 FROM games WHERE id = $1 AND developer_id = $2', [draft.gameId, dev.developerId])).toBe(1);
    expect((await t.db.query('SELECT display_name FROM developers WHERE id = $1', [dev.developerId])).rows).toEqual([{ display_name: 'Erased developer' }]);
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  });

  it('409 CONFLICT for a developer with a published game and for an admin; nothing changes', async () => {
    const dev = await createDeveloper(t);
    await publishGame(t, dev);
    const key = await createApiKey(t, dev);
    const refused = await del(dev.cookie, { currentPassword: dev.password, confirm: CONFIRM }).expect(409);
    expect(refused.body.error).toBe('CONFLICT');
    expect((await accountRow(dev.accountId)).email).toBe(dev.email);
    await t.http().get('/api/me').set('Cookie', dev.cookie).expect(200);
    expect(await count('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [key.id])).toBe(1);

    const admin = await logIn(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const adminRefused = await del(admin, { currentPassword: ADMIN_PASSWORD, confirm: CONFIRM }).expect(409);
    expect(adminRefused.body.error).toBe('CONFLICT');
    await t.http().get('/api/me').set('Cookie', admin).expect(200);
    expect(await count("SELECT 1 FROM audit_log WHERE action = 'user.erase' AND target_id IN ($1)", [dev.accountId])).toBe(0);
  });

  it('a wrong password: 403 WRONG_PASSWORD before the 409, nothing changes, counted as a failed login for the e-mail', async () => {
    const dev = await createDeveloper(t);
    await publishGame(t, dev);
    for (let i = 0; i < 3; i++) {
      const res = await del(dev.cookie, { currentPassword: 'not the password', confirm: CONFIRM }).expect(403);
      expect(res.body).toEqual({ error: 'WRONG_PASSWORD', message: 'The current password is wrong.' });
    }
    expect((await accountRow(dev.accountId)).email).toBe(dev.email);
    // Three failures of three: the limit is reached, sign-in with the right password answers 429.
    expect((await t.http().post('/auth/login').send({ email: dev.email, password: dev.password }).expect(429)).body.error).toBe('RATE_LIMITED');
    t.clock.advance(15 * 60_000 + 1000);

    const ada = await signUpVerifiedPlayer(t);
    await fundPlayer(t, ada, 5);
    await del(ada.cookie, { currentPassword: 'nope', confirm: CONFIRM }).expect(403);
    expect((await accountRow(ada.accountId)).email).toBe(ada.email);
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
  });

  it('400 INVALID_REQUEST for a confirm other than "DELETE" or a missing field, before the password is checked; nothing changes', async () => {
    const ada = await signUpVerifiedPlayer(t);
    await fundPlayer(t, ada, 5);
    for (const body of [
      { currentPassword: ada.password, confirm: 'delete' },
      { currentPassword: ada.password, confirm: 'DELETE ' },
      { currentPassword: ada.password, confirm: '' },
      { currentPassword: ada.password },
      { confirm: CONFIRM },
      { currentPassword: 'wrong', confirm: 'yes' },
      { currentPassword: 'wrong', confirm: 'yes' },
      { currentPassword: 'wrong', confirm: 'yes' },
    ]) {
      expect((await del(ada.cookie, body).expect(400)).body.error).toBe('INVALID_REQUEST');
    }
    expect(await accountRow(ada.accountId)).toMatchObject({ email: ada.email, erased_at: null });
    expect(await count("SELECT 1 FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 AND l.kind = 'forfeit'", [ada.playerId])).toBe(0);
    await t.http().get('/api/me').set('Cookie', ada.cookie).expect(200);
    // The wrong passwords above were not counted: the right one still works.
    await del(ada.cookie, { currentPassword: ada.password, confirm: CONFIRM }).expect(204);
  });

  it('signed out: 401; from another origin: 403', async () => {
    expect((await t.http().post('/api/me/delete').send({ currentPassword: 'x', confirm: CONFIRM }).expect(401)).body.error).toBe('UNAUTHENTICATED');
    const ada = await signUpVerifiedPlayer(t);
    await t.http().post('/api/me/delete').set('Cookie', ada.cookie).set('Origin', 'https://evil.example').send({ currentPassword: ada.password, confirm: CONFIRM }).expect(403);
    expect((await accountRow(ada.accountId)).email).toBe(ada.email);
  });
});
