import { createHmac } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { PlaySessionRepository } from '../../src/modules/play-sessions/play-session.repository';
import { PlayerRefService } from '../../src/modules/play-sessions/player-ref.service';
import { createTestApp, TestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { adminCookie, createApiKey, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { loginSessionEndings } from '../support/login-session-endings';
import { fundPlayer, idempotencyKey, insertCoin, startSession } from '../support/play';

/** Spec §3.1 and §4.1, §4.3, §4.4; CONTRACT §6, §16.1, §16.2, §16.6. Idle timeout: 2 seconds. */
describe('play sessions', () => {
  const IDLE = 2;
  let t: TestApp;
  let dev: Developer;
  let player: SignedUpUser & { playerId: string };
  let game: { gameId: string; slug: string; versionId: string };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const post = (path: string, cookie: string, body?: object) => t.http().post(path).set('Cookie', cookie).send(body ?? {});

  beforeAll(async () => {
    t = await createWorldApp({ env: { SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE) } });
    dev = await createDeveloper(t);
    game = await publishGame(t, dev, { coinsPerCredit: 2 });
    player = await signUpVerifiedPlayer(t, { displayName: 'Ada' });
    await fundPlayer(t, player, 10);
  });
  afterAll(async () => t.close());

  describe('POST /api/play/sessions', () => {
    it('starts an active paid session with the spec §2.1 fields', async () => {
      const before = Date.now();
      const res = await post('/api/play/sessions', player.cookie, { gameSlug: game.slug }).expect(201);
      expect(res.body).toEqual({
        sessionId: expect.any(String),
        gameId: game.gameId,
        coinsPerCredit: 2,
        balance: 10,
        testMode: false,
        expiresAt: expect.any(String),
        player: { ref: expect.stringMatching(/^pr_[0-9a-f]{32}$/), displayName: 'Ada' },
      });
      const expiresAt = Date.parse(res.body.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + IDLE * 1000 - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + IDLE * 1000 + 1000);
      const row = await t.db.query('SELECT game_version_id, player_id, test_mode, coins_per_credit, ended_at FROM play_sessions WHERE id = $1', [res.body.sessionId]);
      expect(row.rows[0]).toEqual({ game_version_id: game.versionId, player_id: player.playerId, test_mode: false, coins_per_credit: 2, ended_at: null });
    });

    it('gives one player the same PlayerRef across one developer\'s games and a different one for another developer', async () => {
      const second = await publishGame(t, dev);
      const otherDev = await createDeveloper(t);
      const foreign = await publishGame(t, otherDev);
      const a = await post('/api/play/sessions', player.cookie, { gameSlug: game.slug }).expect(201);
      const b = await post('/api/play/sessions', player.cookie, { gameSlug: second.slug }).expect(201);
      const c = await post('/api/play/sessions', player.cookie, { gameSlug: foreign.slug }).expect(201);
      expect(b.body.player.ref).toBe(a.body.player.ref);
      expect(c.body.player.ref).not.toBe(a.body.player.ref);
      const other = await signUpVerifiedPlayer(t);
      const d = await post('/api/play/sessions', other.cookie, { gameSlug: game.slug }).expect(201);
      expect(d.body.player.ref).not.toBe(a.body.player.ref);
      // no e-mail or account id inside
      expect(a.body.player.ref).not.toContain(player.accountId.replace(/-/g, '').slice(0, 8));
    });

    it('keeps PlayerRefs across a restart (the secret is stored once)', async () => {
      const a = await post('/api/play/sessions', player.cookie, { gameSlug: game.slug }).expect(201);
      const second = await createWorldApp({ databaseUrl: t.databaseUrl });
      try {
        const b = await second.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug: game.slug }).expect(201);
        expect(b.body.player.ref).toBe(a.body.player.ref);
      } finally {
        await second.close();
      }
    });

    it('PlayerRef is pr_ + HMAC-SHA256(secret, developerId:playerId): the stored secret, or PLAYER_REF_SECRET when set', async () => {
      const hmac = (secret: string) => `pr_${createHmac('sha256', secret).update(`${dev.developerId}:${player.playerId}`).digest('hex').slice(0, 32)}`;
      const stored = await t.db.query(`SELECT value FROM app_settings WHERE key = 'player_ref_secret'`);
      expect(stored.rows).toHaveLength(1);
      const a = await post('/api/play/sessions', player.cookie, { gameSlug: game.slug }).expect(201);
      expect(a.body.player.ref).toBe(hmac(stored.rows[0].value));
      const secret = 'an-operator-chosen-secret-0123456789';
      const configured = await createWorldApp({ databaseUrl: t.databaseUrl, env: { PLAYER_REF_SECRET: secret } });
      try {
        const b = await configured.http().post('/api/play/sessions').set('Cookie', player.cookie).send({ gameSlug: game.slug }).expect(201);
        expect(b.body.player.ref).toBe(hmac(secret));
        const row = await t.db.query('SELECT player_ref FROM play_sessions WHERE id = $1', [b.body.sessionId]);
        expect(row.rows[0].player_ref).toBe(hmac(secret));
      } finally {
        await configured.close();
      }
    });

    it('instances starting together on an empty database agree on one generated secret', async () => {
      const databaseUrl = await createTestDatabase();
      const apps = await Promise.all([1, 2, 3].map(() => createTestApp({ databaseUrl })));
      try {
        const refs = apps.map((app) => app.app.nest.get(PlayerRefService).refFor('developer-1', 'player-1'));
        expect(new Set(refs).size).toBe(1);
        const rows = await apps[0]!.db.query(`SELECT count(*)::int AS n FROM app_settings WHERE key = 'player_ref_secret'`);
        expect(rows.rows[0].n).toBe(1);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
      }
    });

    it('answers 401 signed out, 403 EMAIL_NOT_VERIFIED, 403 ACCOUNT_NOT_LINKED, in that order', async () => {
      await t.http().post('/api/play/sessions').send({ gameSlug: game.slug }).expect(401);
      const unverified = await signUpPlayer(t, { verified: false, linked: false });
      expect((await post('/api/play/sessions', unverified.cookie, { gameSlug: 'BAD SLUG' }).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      expect((await post('/api/play/sessions', unlinked.cookie, { gameSlug: game.slug }).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
    });

    it('refuses a cross-origin request with 403 FORBIDDEN', async () => {
      const res = await t.http().post('/api/play/sessions').set('Cookie', player.cookie).set('Origin', 'https://evil.example').send({ gameSlug: game.slug }).expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
    });

    it.each([
      [{}],
      [{ gameSlug: 'Not-A-Slug' }],
      [{ gameSlug: 'a'.repeat(65) }],
      [{ gameSlug: 'ok', extra: 1 }],
      [{ gameSlug: 'ok', preview: 'yes' }],
    ])('answers 400 INVALID_REQUEST for %j', async (body) => {
      expect((await post('/api/play/sessions', player.cookie, body).expect(400)).body.error).toBe('INVALID_REQUEST');
    });

    it('answers 400 for versionId without preview: true', async () => {
      const res = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, versionId: game.versionId }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, versionId: game.versionId, preview: false }).expect(400);
    });

    it('answers 404 GAME_UNAVAILABLE for unknown, unpublished and suspended games', async () => {
      expect((await post('/api/play/sessions', player.cookie, { gameSlug: 'no-such-game' }).expect(404)).body.error).toBe('GAME_UNAVAILABLE');
      const unpublished = await createGame(t, dev);
      expect((await post('/api/play/sessions', player.cookie, { gameSlug: unpublished.slug }).expect(404)).body.error).toBe('GAME_UNAVAILABLE');
      const suspended = await publishGame(t, dev);
      await post(`/api/admin/games/${suspended.gameId}/suspend`, await adminCookie(t)).expect(200);
      expect((await post('/api/play/sessions', player.cookie, { gameSlug: suspended.slug }).expect(404)).body.error).toBe('GAME_UNAVAILABLE');
      // the owner too; an admin gets a test-mode session (§16.1)
      expect((await post('/api/play/sessions', dev.cookie, { gameSlug: suspended.slug }).expect(404)).body.error).toBe('GAME_UNAVAILABLE');
      const admin = await post('/api/play/sessions', await adminCookie(t), { gameSlug: suspended.slug }).expect(201);
      expect(admin.body.testMode).toBe(true);
    });

    it('answers 403 FORBIDDEN to preview: true from someone who is neither owner nor admin', async () => {
      expect((await post('/api/play/sessions', player.cookie, { gameSlug: game.slug, preview: true }).expect(403)).body.error).toBe('FORBIDDEN');
      const otherDev = await createDeveloper(t);
      expect((await post('/api/play/sessions', otherDev.cookie, { gameSlug: game.slug, preview: true }).expect(403)).body.error).toBe('FORBIDDEN');
    });

    it('gives the owner a paid session on the published game, a test-mode one with preview: true (§16.1)', async () => {
      const paid = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug }).expect(201);
      expect(paid.body.testMode).toBe(false);
      const same = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, preview: false }).expect(201);
      expect(same.body.testMode).toBe(false);
      const preview = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, preview: true }).expect(201);
      expect(preview.body.testMode).toBe(true);
      const admin = await post('/api/play/sessions', await adminCookie(t), { gameSlug: game.slug, preview: true }).expect(201);
      expect(admin.body.testMode).toBe(true);
    });

    it('gives owner and admin a test-mode session on an unpublished game, on the newest non-rejected upload', async () => {
      const unpublished = await createGame(t, dev);
      const newer = await post(`/api/portal/games/${unpublished.gameId}/versions`, dev.cookie, { label: '2.0.0', entryUrl: '/games/two/index.html' }).expect(201);
      const owner = await post('/api/play/sessions', dev.cookie, { gameSlug: unpublished.slug }).expect(201);
      expect(owner.body.testMode).toBe(true);
      const row = await t.db.query('SELECT game_version_id, test_mode FROM play_sessions WHERE id = $1', [owner.body.sessionId]);
      expect(row.rows[0]).toEqual({ game_version_id: newer.body.versionId, test_mode: true });
      await post(`/api/admin/versions/${newer.body.versionId}/reject`, await adminCookie(t), {}).expect(200);
      const admin = await post('/api/play/sessions', await adminCookie(t), { gameSlug: unpublished.slug }).expect(201);
      const adminRow = await t.db.query('SELECT game_version_id FROM play_sessions WHERE id = $1', [admin.body.sessionId]);
      expect(adminRow.rows[0].game_version_id).toBe(unpublished.versionId);
    });

    it('previews a named version of the game; another game\'s version is 404 GAME_UNAVAILABLE', async () => {
      const other = await createGame(t, dev);
      const res = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, preview: true, versionId: game.versionId }).expect(201);
      const row = await t.db.query('SELECT game_version_id, test_mode FROM play_sessions WHERE id = $1', [res.body.sessionId]);
      expect(row.rows[0]).toEqual({ game_version_id: game.versionId, test_mode: true });
      const foreign = await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, preview: true, versionId: other.versionId }).expect(404);
      expect(foreign.body.error).toBe('GAME_UNAVAILABLE');
      await post('/api/play/sessions', dev.cookie, { gameSlug: game.slug, preview: true, versionId: 'not-a-version' }).expect(404);
    });

    it('keeps the price a session was created with when the developer changes it (§16.6)', async () => {
      const priced = await publishGame(t, dev, { coinsPerCredit: 1 });
      const buyer = await signUpVerifiedPlayer(t);
      await fundPlayer(t, buyer, 10);
      const { sessionId } = await startSession(t, buyer, priced.slug);
      await t.http().patch(`/api/portal/games/${priced.gameId}`).set('Cookie', dev.cookie).send({ coinsPerCredit: 4 }).expect(200);
      const coin = await post(`/api/play/sessions/${sessionId}/insert-coin`, buyer.cookie, { idempotencyKey: idempotencyKey() }).expect(200);
      expect(coin.body).toMatchObject({ coinsSpent: 1, balance: 9 });
      const fresh = await post('/api/play/sessions', buyer.cookie, { gameSlug: priced.slug }).expect(201);
      expect(fresh.body.coinsPerCredit).toBe(4);
    });
  });

  describe('heartbeat, end and the idle timeout', () => {
    it('heartbeat extends lastSeenAt and expiresAt of an active session', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const before = await t.db.query('SELECT last_seen_at FROM play_sessions WHERE id = $1', [sessionId]);
      await sleep(50);
      const res = await post(`/api/play/sessions/${sessionId}/heartbeat`, player.cookie).expect(200);
      expect(res.body).toEqual({ sessionId, lastSeenAt: expect.any(String), expiresAt: expect.any(String) });
      expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.lastSeenAt)).toBe(IDLE * 1000);
      expect(Date.parse(res.body.lastSeenAt)).toBeGreaterThan(before.rows[0].last_seen_at.getTime());
      const after = await t.db.query('SELECT last_seen_at FROM play_sessions WHERE id = $1', [sessionId]);
      expect(after.rows[0].last_seen_at.toISOString()).toBe(res.body.lastSeenAt);
    });

    it('heartbeat commits without waiting for the WAL flush, for its own transaction only (issue 29: the last second of lastSeenAt is all a crash can lose)', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const uow = t.app.nest.get(UnitOfWork);
      const sessions = t.app.nest.get(PlaySessionRepository);
      const login = await t.db.query<{ id: string }>('SELECT id FROM login_sessions WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1', [player.accountId]);
      const setting = async () => (await uow.one<{ value: string }>("SELECT current_setting('synchronous_commit') AS value"))!.value;
      const inside = await uow.run(async () => {
        const before = await setting();
        expect(await sessions.heartbeat(sessionId, player.playerId, login.rows[0]!.id, IDLE)).toBeInstanceOf(Date);
        return { before, after: await setting() };
      });
      expect(inside).toEqual({ before: 'on', after: 'off' });
      // Every later transaction commits synchronously again.
      expect(await uow.run(setting)).toBe('on');
    });

    it('heartbeat trusts a login session it read before only while the session lives: 401 at once after a sign-out, a ban, or an expiry or revocation made in SQL, the play session untouched', async () => {
      const lastSeen = async (sessionId: string) => (await t.db.query('SELECT last_seen_at FROM play_sessions WHERE id = $1', [sessionId])).rows[0].last_seen_at.toISOString();
      for (const [label, end] of loginSessionEndings(t)) {
        const who = await signUpVerifiedPlayer(t);
        const { sessionId } = await startSession(t, who, game.slug);
        // Twice: the second heartbeat is answered from the login session this instance keeps.
        for (let i = 0; i < 2; i++) await post(`/api/play/sessions/${sessionId}/heartbeat`, who.cookie).expect(200);
        const before = await lastSeen(sessionId);
        await end(who);
        const res = await post(`/api/play/sessions/${sessionId}/heartbeat`, who.cookie);
        expect({ label, status: res.status, error: res.body.error }).toEqual({ label, status: 401, error: 'UNAUTHENTICATED' });
        expect({ label, lastSeen: await lastSeen(sessionId) }).toEqual({ label, lastSeen: before });
      }
    });

    it('heartbeat: 404 SESSION_NOT_FOUND for unknown, malformed or another player\'s sessions; 400 for an id over 64 characters', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const other = await signUpVerifiedPlayer(t);
      expect((await post(`/api/play/sessions/${sessionId}/heartbeat`, other.cookie).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      expect((await post('/api/play/sessions/00000000-0000-4000-8000-000000000000/heartbeat', player.cookie).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      expect((await post('/api/play/sessions/nope/heartbeat', player.cookie).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      expect((await post(`/api/play/sessions/${'a'.repeat(65)}/heartbeat`, player.cookie).expect(400)).body.error).toBe('INVALID_REQUEST');
      await t.http().post(`/api/play/sessions/${sessionId}/heartbeat`).expect(401);
    });

    it('end: 200 with endedAt; repeat returns the original endedAt; then heartbeat and insert-coin are 410', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const first = await post(`/api/play/sessions/${sessionId}/end`, player.cookie).expect(200);
      expect(first.body).toEqual({ sessionId, endedAt: expect.any(String) });
      await sleep(20);
      const again = await post(`/api/play/sessions/${sessionId}/end`, player.cookie).expect(200);
      expect(again.body.endedAt).toBe(first.body.endedAt);
      expect((await post(`/api/play/sessions/${sessionId}/heartbeat`, player.cookie).expect(410)).body.error).toBe('SESSION_EXPIRED');
      const coin = await post(`/api/play/sessions/${sessionId}/insert-coin`, player.cookie, { idempotencyKey: idempotencyKey() }).expect(410);
      expect(coin.body.error).toBe('SESSION_EXPIRED');
      const row = await t.db.query('SELECT ended_at FROM play_sessions WHERE id = $1', [sessionId]);
      expect(row.rows[0].ended_at.toISOString()).toBe(first.body.endedAt);
    });

    it('end: 404 for another player\'s or an unknown session, 401 signed out', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const other = await signUpVerifiedPlayer(t);
      expect((await post(`/api/play/sessions/${sessionId}/end`, other.cookie).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      expect((await post('/api/play/sessions/00000000-0000-4000-8000-000000000000/end', player.cookie).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      await t.http().post(`/api/play/sessions/${sessionId}/end`).expect(401);
      const row = await t.db.query('SELECT ended_at FROM play_sessions WHERE id = $1', [sessionId]);
      expect(row.rows[0].ended_at).toBeNull();
    });

    it('heartbeat and end: 403 EMAIL_NOT_VERIFIED, 403 ACCOUNT_NOT_LINKED and 403 FORBIDDEN cross-origin, before the session lookup', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const unverified = await signUpPlayer(t, { verified: false });
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      for (const action of ['heartbeat', 'end']) {
        expect((await post(`/api/play/sessions/${sessionId}/${action}`, unverified.cookie).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
        expect((await post(`/api/play/sessions/${sessionId}/${action}`, unlinked.cookie).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
        const cross = await t.http().post(`/api/play/sessions/${sessionId}/${action}`).set('Cookie', player.cookie).set('Origin', 'https://evil.example').expect(403);
        expect(cross.body.error).toBe('FORBIDDEN');
      }
      const row = await t.db.query('SELECT ended_at FROM play_sessions WHERE id = $1', [sessionId]);
      expect(row.rows[0].ended_at).toBeNull();
    });

    it('an idle session (past the timeout) answers 410 to heartbeat and insert-coin, is never revived, and can still be ended', async () => {
      const apiKey = await createApiKey(t, dev, 'test');
      const { sessionId } = await startSession(t, player, game.slug);
      const balanceBefore = (await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200)).body.balance;
      await sleep(IDLE * 1000 + 300);
      const summary = await t.http().get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${apiKey.key}`).expect(200);
      expect(summary.body).toMatchObject({ status: 'idle', expiresAt: null, endedAt: null });
      expect((await post(`/api/play/sessions/${sessionId}/heartbeat`, player.cookie).expect(410)).body.error).toBe('SESSION_EXPIRED');
      expect((await post(`/api/play/sessions/${sessionId}/insert-coin`, player.cookie, { idempotencyKey: idempotencyKey() }).expect(410)).body.error).toBe('SESSION_EXPIRED');
      const still = await t.http().get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${apiKey.key}`).expect(200);
      expect(still.body.status).toBe('idle');
      expect((await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200)).body.balance).toBe(balanceBefore);
      const ended = await post(`/api/play/sessions/${sessionId}/end`, player.cookie).expect(200);
      const after = await t.http().get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${apiKey.key}`).expect(200);
      expect(after.body).toMatchObject({ status: 'ended', endedAt: ended.body.endedAt, expiresAt: null });
    });

    it('activity keeps a session alive: heartbeats and insertions move lastSeenAt', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      await sleep(IDLE * 500);
      await post(`/api/play/sessions/${sessionId}/heartbeat`, player.cookie).expect(200);
      await sleep(IDLE * 500 + 200);
      // more than IDLE since the start, less since the heartbeat
      await insertCoin(t, player, sessionId);
      await sleep(IDLE * 500 + 200);
      await post(`/api/play/sessions/${sessionId}/heartbeat`, player.cookie).expect(200);
    });
  });
});
