/**
 * Ban and unban (CONTRACT §18): the ban takes effect on every cookie and key of the user at once,
 * sign-in tells a banned user so only after the password, banning yourself is refused, and only
 * real changes are audited.
 */
import type { TestApp } from '../support/app';
import { SignedInAdmin, signedInAdmin } from '../support/admin';
import {
  ADMIN_EMAIL,
  authCookieOf,
  createApiKey,
  createDeveloper,
  createWorldApp,
  Developer,
  logIn,
  publishGame,
  signUpVerifiedPlayer,
} from '../support/factories';
import { fundPlayer, idempotencyKey, insertCoin, paidSession, postScore, startSession } from '../support/play';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('POST /api/admin/users/{userId}/ban and /unban', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let adminId: string;
  let dev: Developer;
  let game: { gameId: string; slug: string };

  const auditOf = async (targetId: string) =>
    (await t.db.query<{ action: string; reason: string | null; actor_id: string }>('SELECT action, reason, actor_id FROM audit_log WHERE target_id = $1 ORDER BY id', [targetId])).rows;
  const me = (cookie: string) => t.http().get('/api/me').set('Cookie', cookie);

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    adminId = (await me(admin.cookie).expect(200)).body.id;
    dev = await createDeveloper(t);
    game = await publishGame(t, dev);
  });
  afterAll(async () => t.close());

  it('answers 401 signed out and 403 FORBIDDEN to players and developers, changing nothing', async () => {
    const target = await signUpVerifiedPlayer(t);
    const player = await signUpVerifiedPlayer(t);
    for (const action of ['ban', 'unban']) {
      const path = `/api/admin/users/${target.accountId}/${action}`;
      expect((await t.http().post(path).send({ reason: 'x' })).status).toBe(401);
      for (const cookie of [player.cookie, dev.cookie]) {
        const res = await t.http().post(path).set('Cookie', cookie).send({ reason: 'x' });
        expect([res.status, res.body.error]).toEqual([403, 'FORBIDDEN']);
      }
    }
    await me(target.cookie).expect(200);
    expect((await auditOf(target.accountId)).map((e) => e.action)).toEqual(['user.verify_email']);
  });

  it('bans: 200 { user } with bannedAt; every cookie of the user answers 401 at once, an open game can no longer insert coins or post scores', async () => {
    const player = await signUpVerifiedPlayer(t, { displayName: 'Cheater' });
    await fundPlayer(t, player, 10);
    const secondCookie = await logIn(t, player.email, player.password);
    const round = await paidSession(t, player, game.slug);
    const { sessionId } = await startSession(t, player, game.slug);

    const res = await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Memory editing.' }).expect(200);
    expect(res.body).toEqual({
      user: {
        id: player.accountId,
        email: player.email,
        emailVerified: true,
        displayName: 'Cheater',
        roles: ['player'],
        linked: true,
        balance: 9,
        bannedAt: expect.any(String),
        walletFrozenAt: null,
      },
    });
    const stored = await t.db.query('SELECT banned_at FROM accounts WHERE id = $1', [player.accountId]);
    expect(res.body.user.bannedAt).toBe(stored.rows[0].banned_at.toISOString());

    for (const cookie of [player.cookie, secondCookie]) expect((await me(cookie)).body.error).toBe('UNAUTHENTICATED');
    const coin = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('coin') });
    expect([coin.status, coin.body.error]).toEqual([401, 'UNAUTHENTICATED']);
    const score = await postScore(t, player, round.sessionId, 123);
    expect([score.status, score.body.error]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await t.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', player.cookie)).status).toBe(401);
    const money = await t.db.query('SELECT w.balance::int AS balance, (SELECT count(*)::int FROM scores s WHERE s.player_id = $1) AS scores FROM wallets w WHERE w.player_id = $1', [player.playerId]);
    expect(money.rows[0]).toEqual({ balance: 9, scores: 0 });
    const live = await t.db.query('SELECT count(*)::int AS n FROM login_sessions WHERE account_id = $1 AND revoked_at IS NULL', [player.accountId]);
    expect(live.rows[0].n).toBe(0);

    expect(await auditOf(player.accountId)).toEqual([
      { action: 'user.verify_email', reason: null, actor_id: adminId },
      { action: 'wallet.credit', reason: 'test funds', actor_id: adminId },
      { action: 'user.ban', reason: 'Memory editing.', actor_id: adminId },
    ]);
  });

  it('sign-in of a banned user answers 403 ACCOUNT_BANNED after the password check; a wrong password stays 401', async () => {
    const player = await signUpVerifiedPlayer(t);
    await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Abuse.' }).expect(200);
    const right = await t.http().post('/auth/login').send({ email: player.email, password: player.password });
    expect([right.status, right.body.error]).toEqual([403, 'ACCOUNT_BANNED']);
    expect(right.headers['set-cookie']).toBeUndefined();
    const wrong = await t.http().post('/auth/login').send({ email: player.email, password: 'not-the-password' });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'UNAUTHENTICATED']);
    const sessions = await t.db.query('SELECT count(*)::int AS n FROM login_sessions WHERE account_id = $1 AND revoked_at IS NULL', [player.accountId]);
    expect(sessions.rows[0].n).toBe(0);
  });

  it('a banned developer\'s API keys answer 401 while the ban lasts; games stay as they are', async () => {
    const banned = await createDeveloper(t);
    const own = await publishGame(t, banned);
    const key = (await createApiKey(t, banned, 'live')).key;
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const { insertionId } = await paidSession(t, player, own.slug);
    const verify = () => t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${key}`);
    await verify().expect(200);

    await admin.post(`/api/admin/users/${banned.accountId}/ban`, { reason: 'Fraudulent game.' }).expect(200);
    const refused = await verify();
    expect([refused.status, refused.body.error]).toEqual([401, 'UNAUTHENTICATED']);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="arcade", error="invalid_token"');
    await t.http().get(`/api/games/${own.slug}`).expect(200);

    await admin.post(`/api/admin/users/${banned.accountId}/unban`).expect(200);
    await verify().expect(200);
  });

  it('unbans: bannedAt null, sign-in works again, the revoked cookies stay dead', async () => {
    const player = await signUpVerifiedPlayer(t);
    await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Spam.' }).expect(200);
    const res = await admin.post(`/api/admin/users/${player.accountId}/unban`).expect(200);
    expect(res.body.user).toMatchObject({ id: player.accountId, bannedAt: null });
    await me(player.cookie).expect(401);
    const fresh = await logIn(t, player.email, player.password);
    await me(fresh).expect(200);
    expect((await auditOf(player.accountId)).map((e) => e.action)).toEqual(['user.verify_email', 'user.ban', 'user.unban']);
  });

  it('a repeated ban answers the first bannedAt, a repeated unban changes nothing, and neither is audited twice', async () => {
    const player = await signUpVerifiedPlayer(t);
    const first = await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'First.' }).expect(200);
    const again = await admin.post(`/api/admin/users/${player.accountId.toUpperCase()}/ban`, { reason: 'Second.' }).expect(200);
    expect(again.body).toEqual(first.body);
    await admin.post(`/api/admin/users/${player.accountId}/unban`).expect(200);
    const unbannedAgain = await admin.post(`/api/admin/users/${player.accountId}/unban`).expect(200);
    expect(unbannedAgain.body.user.bannedAt).toBeNull();
    expect(await auditOf(player.accountId)).toEqual([
      { action: 'user.verify_email', reason: null, actor_id: adminId },
      { action: 'user.ban', reason: 'First.', actor_id: adminId },
      { action: 'user.unban', reason: null, actor_id: adminId },
    ]);
  });

  it('banning yourself answers 409 CONFLICT and changes nothing', async () => {
    const res = await admin.post(`/api/admin/users/${adminId}/ban`, { reason: 'Oops.' });
    expect([res.status, res.body.error]).toEqual([409, 'CONFLICT']);
    await me(admin.cookie).expect(200);
    const row = await t.db.query('SELECT banned_at FROM accounts WHERE id = $1', [adminId]);
    expect(row.rows[0].banned_at).toBeNull();
    expect(await auditOf(adminId)).toEqual([]);
    await logIn(t, ADMIN_EMAIL, 'admin-password-for-tests');
  });

  it('answers 404 for unknown users, 400 for a missing, empty or long reason and long ids; a refused request is not audited', async () => {
    const player = await signUpVerifiedPlayer(t);
    for (const [path, body, status] of [
      [`/api/admin/users/${UNKNOWN_ID}/ban`, { reason: 'x' }, 404],
      [`/api/admin/users/someone/ban`, { reason: 'x' }, 404],
      [`/api/admin/users/${UNKNOWN_ID}/unban`, {}, 404],
      [`/api/admin/users/${'a'.repeat(65)}/ban`, { reason: 'x' }, 400],
      [`/api/admin/users/${'a'.repeat(65)}/unban`, {}, 400],
      [`/api/admin/users/${player.accountId}/ban`, {}, 400],
      [`/api/admin/users/${player.accountId}/ban`, { reason: '' }, 400],
      [`/api/admin/users/${player.accountId}/ban`, { reason: 'x'.repeat(201) }, 400],
      [`/api/admin/users/${player.accountId}/ban`, { reason: 42 }, 400],
      [`/api/admin/users/${player.accountId}/ban`, { reason: 'x', until: 'forever' }, 400],
    ] as [string, object, number][]) {
      const res = await admin.post(path, body);
      expect([path, res.status, res.body.error]).toEqual([path, status, status === 404 ? 'NOT_FOUND' : 'INVALID_REQUEST']);
    }
    const cross = await t.http().post(`/api/admin/users/${player.accountId}/ban`).set('Cookie', admin.cookie).set('Origin', 'https://evil.example').send({ reason: 'x' });
    expect([cross.status, cross.body.error]).toEqual([403, 'FORBIDDEN']);
    await me(player.cookie).expect(200);
    expect(await auditOf(player.accountId)).toEqual([{ action: 'user.verify_email', reason: null, actor_id: adminId }]);
  });

  it('a ban racing sign-ins leaves no live login session behind, even after an unban', async () => {
    const player = await signUpVerifiedPlayer(t);
    // Sign-ins spread over the time a password check takes, so some read the account before the
    // ban and start their login session after it committed.
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const logins = Array.from({ length: 10 }, async (_, i) => {
      await sleep(i * 10);
      return t.http().post('/auth/login').send({ email: player.email, password: player.password });
    });
    const ban = sleep(25).then(() => admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Race.' }));
    const answers = await Promise.all(logins);
    expect((await ban).status).toBe(200);
    for (const answer of answers) expect([200, 403]).toContain(answer.status);
    await admin.post(`/api/admin/users/${player.accountId}/unban`).expect(200);
    for (const answer of answers.filter((a) => a.status === 200)) await me(authCookieOf(answer)).expect(401);
    await me(player.cookie).expect(401);
    const live = await t.db.query('SELECT count(*)::int AS n FROM login_sessions WHERE account_id = $1 AND revoked_at IS NULL', [player.accountId]);
    expect(live.rows[0].n).toBe(0);
  });

  it('an insert-coin on an open game after the ban changes no wallet', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 3);
    const { sessionId } = await startSession(t, player, game.slug);
    await insertCoin(t, player, sessionId);
    await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Bot.' }).expect(200);
    const answers = await Promise.all(
      [1, 2].map(() => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('coin') })),
    );
    expect(answers.map((a) => a.status)).toEqual([401, 401]);
    const rows = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(rows.rows[0].n).toBe(1);
  });
});
