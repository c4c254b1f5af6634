import { createTestApp, TestApp } from '../support/app';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  adminCookie,
  createDeveloper,
  createGame,
  createWorldApp,
  DEFAULT_PASSWORD,
  Developer,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
} from '../support/factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const LONG_ID = 'a'.repeat(65);

describe('admin (CONTRACT §4)', () => {
  let t: TestApp;
  let admin: string;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  const adminPost = (path: string, body?: object) => t.http().post(path).set('Cookie', admin).send(body);

  it('bootstraps ADMIN_EMAIL as a verified, linked admin with a wallet', async () => {
    const me = await t.http().get('/api/me').set('Cookie', admin).expect(200);
    expect(me.body).toMatchObject({ email: ADMIN_EMAIL, emailVerified: true, linked: true, roles: ['player', 'admin'], balance: 0 });
  });

  it.each([
    ['verify-email', `/api/admin/users/${UNKNOWN_ID}/verify-email`],
    ['approve', `/api/admin/versions/${UNKNOWN_ID}/approve`],
    ['reject', `/api/admin/versions/${UNKNOWN_ID}/reject`],
    ['suspend', `/api/admin/games/${UNKNOWN_ID}/suspend`],
    ['unsuspend', `/api/admin/games/${UNKNOWN_ID}/unsuspend`],
  ])('%s answers 403 FORBIDDEN to players and developers and 401 signed out', async (_name, path) => {
    const player = await signUpVerifiedPlayer(t);
    for (const cookie of [player.cookie, dev.cookie]) {
      const res = await t.http().post(path).set('Cookie', cookie).send({});
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    expect((await t.http().post(path).send({})).status).toBe(401);
  });

  describe('POST /api/admin/users/{userId}/verify-email', () => {
    it('verifies the account and answers 200 { user }; a repeat answers the same', async () => {
      const player = await signUpPlayer(t, { verified: false });
      const res = await adminPost(`/api/admin/users/${player.accountId}/verify-email`).expect(200);
      expect(res.body).toEqual({ user: { id: player.accountId, email: player.email, emailVerified: true, displayName: 'Player', roles: ['player'], linked: true } });
      await adminPost(`/api/admin/users/${player.accountId}/verify-email`).expect(200);
      const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
      expect(me.body.emailVerified).toBe(true);
    });

    it('answers 404 NOT_FOUND for unknown and non-uuid ids and 400 for ids over 64 characters', async () => {
      expect((await adminPost(`/api/admin/users/${UNKNOWN_ID}/verify-email`).expect(404)).body.error).toBe('NOT_FOUND');
      await adminPost('/api/admin/users/someone/verify-email').expect(404);
      expect((await adminPost(`/api/admin/users/${LONG_ID}/verify-email`).expect(400)).body.error).toBe('INVALID_REQUEST');
    });

    it('refuses a cross-origin admin action with 403 FORBIDDEN', async () => {
      const player = await signUpPlayer(t, { verified: false });
      const res = await t.http().post(`/api/admin/users/${player.accountId}/verify-email`).set('Cookie', admin).set('Origin', 'https://evil.example').expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
      const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
      expect(me.body.emailVerified).toBe(false);
    });
  });

  describe('versions', () => {
    it('approves: 200 version with status approved', async () => {
      const game = await createGame(t, dev);
      const res = await adminPost(`/api/admin/versions/${game.versionId}/approve`).expect(200);
      expect(res.body).toEqual({ versionId: game.versionId, label: '1.0.0', entryUrl: expect.any(String), status: 'approved', createdAt: expect.any(String) });
    });

    it('rejects with or without a reason: 200 version with status rejected', async () => {
      const game = await createGame(t, dev);
      const res = await adminPost(`/api/admin/versions/${game.versionId}/reject`, { reason: 'Does not load.' }).expect(200);
      expect(res.body).toMatchObject({ versionId: game.versionId, status: 'rejected' });
      const stored = await t.db.query('SELECT reject_reason FROM game_versions WHERE id = $1', [game.versionId]);
      expect(stored.rows[0].reject_reason).toBe('Does not load.');
      const other = await createGame(t, dev);
      await adminPost(`/api/admin/versions/${other.versionId}/reject`).expect(200);
      const list = await t.http().get(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).expect(200);
      expect(list.body[0].status).toBe('rejected');
    });

    it('answers 404 for unknown versions, 400 for long ids and for a bad reason', async () => {
      await adminPost(`/api/admin/versions/${UNKNOWN_ID}/approve`).expect(404);
      await adminPost('/api/admin/versions/v1/reject').expect(404);
      await adminPost(`/api/admin/versions/${LONG_ID}/approve`).expect(400);
      const game = await createGame(t, dev);
      await adminPost(`/api/admin/versions/${game.versionId}/reject`, { reason: 42 }).expect(400);
    });
  });

  describe('games', () => {
    it('suspends a published game (off the catalogue) and unsuspends it to unpublished', async () => {
      const game = await publishGame(t, dev);
      await t.http().get(`/api/games/${game.slug}`).expect(200);
      const suspended = await adminPost(`/api/admin/games/${game.gameId}/suspend`).expect(200);
      expect(suspended.body).toMatchObject({ gameId: game.gameId, slug: game.slug, status: 'suspended' });
      await t.http().get(`/api/games/${game.slug}`).expect(404);
      const unsuspended = await adminPost(`/api/admin/games/${game.gameId}/unsuspend`).expect(200);
      expect(unsuspended.body).toMatchObject({ gameId: game.gameId, status: 'unpublished', currentVersionId: game.versionId });
      await t.http().get(`/api/games/${game.slug}`).expect(404);
      // The developer can publish again.
      await t.http().post(`/api/portal/games/${game.gameId}/publish`).set('Cookie', dev.cookie).send({ versionId: game.versionId }).expect(200);
      await t.http().get(`/api/games/${game.slug}`).expect(200);
    });

    it('suspends any developer\'s game and answers 404 for unknown ids, 400 for long ones', async () => {
      const game = await createGame(t, dev);
      await adminPost(`/api/admin/games/${game.gameId}/suspend`).expect(200);
      await adminPost(`/api/admin/games/${UNKNOWN_ID}/suspend`).expect(404);
      await adminPost('/api/admin/games/nope/unsuspend').expect(404);
      await adminPost(`/api/admin/games/${LONG_ID}/suspend`).expect(400);
    });
  });
});

describe('admin bootstrap', () => {
  it('promotes an existing account, resets its password to ADMIN_PASSWORD, and is stable across restarts and concurrent starts', async () => {
    const email = 'boss@arcade.test';
    const first = await createTestApp();
    try {
      const player = await signUpPlayer(first, { email, password: DEFAULT_PASSWORD, linked: false });
      expect(player.accountId).toEqual(expect.any(String));
    } finally {
      await first.close();
    }
    const env = { ADMIN_EMAIL: email, ADMIN_PASSWORD: 'the-new-admin-password' };
    const [a, b] = await Promise.all([createTestApp({ databaseUrl: first.databaseUrl, env }), createTestApp({ databaseUrl: first.databaseUrl, env })]);
    try {
      const login = await a.http().post('/auth/login').send({ email, password: 'the-new-admin-password' }).expect(200);
      expect(login.body.user).toMatchObject({ email, emailVerified: true, linked: true, roles: ['player', 'admin'] });
      await a.http().post('/auth/login').send({ email, password: DEFAULT_PASSWORD }).expect(401);
      const accounts = await a.db.query('SELECT count(*)::int AS n FROM accounts WHERE lower(email) = $1', [email]);
      expect(accounts.rows[0].n).toBe(1);
      const players = await a.db.query('SELECT count(*)::int AS n FROM players p JOIN accounts a ON a.id = p.account_id JOIN wallets w ON w.player_id = p.id WHERE lower(a.email) = $1', [email]);
      expect(players.rows[0].n).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('creates no admin when ADMIN_EMAIL or ADMIN_PASSWORD is missing', async () => {
    const app = await createTestApp({ env: { ADMIN_EMAIL } });
    try {
      const admins = await app.db.query('SELECT count(*)::int AS n FROM accounts WHERE is_admin');
      expect(admins.rows[0].n).toBe(0);
      await app.http().post('/auth/login').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(401);
    } finally {
      await app.close();
    }
  });
});
