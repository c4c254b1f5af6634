import { TestApp } from '../support/app';
import {
  adminCookie,
  createAchievement,
  createApiKey,
  createDeveloper,
  createWorldApp,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
} from '../support/factories';

describe('identity smoke: the factories build a world through the API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp();
  });
  afterAll(async () => t.close());

  it('signs up a linked player with a wallet and shows it on /api/me', async () => {
    const player = await signUpPlayer(t);
    const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
    expect(me.body).toEqual({
      id: player.accountId,
      email: player.email,
      emailVerified: false,
      displayName: 'Player',
      roles: ['player'],
      linked: true,
      xp: 0,
      level: 1,
      balance: 0,
      initials: null,
    });
    const wallets = await t.db.query('SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [player.accountId]);
    expect(wallets.rowCount).toBe(1);
  });

  it('bootstraps the admin: verified, linked, role admin', async () => {
    const me = await t.http().get('/api/me').set('Cookie', await adminCookie(t)).expect(200);
    expect(me.body).toMatchObject({ emailVerified: true, linked: true, roles: ['player', 'admin'] });
  });

  it('verifies a player through the admin', async () => {
    const player = await signUpVerifiedPlayer(t);
    const me = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
    expect(me.body.emailVerified).toBe(true);
    expect(player.playerId).toEqual(expect.any(String));
  });

  it('creates a developer, publishes a game and creates a key', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2, maxScore: 1000 });
    const res = await t.http().get(`/api/portal/games/${game.gameId}`).set('Cookie', dev.cookie).expect(200);
    expect(res.body).toMatchObject({ gameId: game.gameId, slug: game.slug, coinsPerCredit: 2, maxScore: 1000, status: 'published', currentVersionId: game.versionId });
    const key = await createApiKey(t, dev, 'live');
    expect(key.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32,}$/);
  });

  it('defines an achievement on a game', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev);
    const { key } = await createAchievement(t, dev, game.gameId, { secret: true });
    const res = await t.http().get(`/api/portal/games/${game.gameId}/achievements`).set('Cookie', dev.cookie).expect(200);
    expect(res.body).toEqual([{ key, name: 'First steps', description: 'Play once.', iconKey: 'trophy', secret: true, status: 'active', createdAt: expect.any(String), unlockCount: 0 }]);
  });

  it('answers 401 without a cookie', async () => {
    const res = await t.http().get('/api/me').expect(401);
    expect(res.body).toEqual({ error: 'UNAUTHENTICATED', message: expect.any(String) });
  });
});
