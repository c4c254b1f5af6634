import { createTestApp, TestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { logIn } from '../support/factories';
import { DEMO } from '../../src/web/demo-seed.service';

describe('demo world (SEED_DEMO, CONTRACT §1)', () => {
  it('seeds an empty database once, even when two instances start together', async () => {
    const databaseUrl = await createTestDatabase();
    const started = await Promise.allSettled([
      createTestApp({ databaseUrl, env: { SEED_DEMO: 'true' } }),
      createTestApp({ databaseUrl, env: { SEED_DEMO: 'true' } }),
    ]);
    const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (apps.length < 2) {
      await Promise.all(apps.map((app) => app.close()));
      throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
    }
    const [a, b] = apps as [TestApp, TestApp];
    try {
      const games = await a.db.query('SELECT slug, status FROM games');
      expect(games.rows).toEqual([{ slug: 'coin-clicker', status: 'published' }]);
      const accounts = await a.db.query('SELECT email, is_admin, email_verified_at IS NOT NULL AS verified FROM accounts ORDER BY email');
      expect(accounts.rows).toEqual([
        { email: DEMO.admin.email, is_admin: true, verified: true },
        { email: DEMO.developer.email, is_admin: false, verified: true },
        { email: DEMO.player.email, is_admin: false, verified: true },
      ]);

      // What a visitor and the demo player see, through the public API.
      const catalogue = await a.http().get('/api/games').expect(200);
      expect(catalogue.body.games).toEqual([
        {
          slug: 'coin-clicker',
          title: 'Coin Clicker',
          coinsPerCredit: DEMO.game.coinsPerCredit,
          description: DEMO.game.description,
          thumbnailUrl: expect.stringMatching(/^\/media\/games\/[0-9a-f-]{36}\/thumbnail-[0-9a-f]{16}\.webp$/),
        },
      ]);
      // The game has a face in the catalogue (CONTRACT §17.2): the other instance serves it too.
      const thumbnail = await b.http().get(catalogue.body.games[0].thumbnailUrl).expect(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      const game = await a.http().get('/api/games/coin-clicker').expect(200);
      expect(game.body.achievements).toHaveLength(4);
      expect(game.body.achievements.filter((x: { secret: boolean }) => x.secret)).toEqual([
        expect.objectContaining({ key: 'zen', name: '???', description: '???', unlocked: false }),
      ]);
      const cookie = await logIn(b, DEMO.player.email, DEMO.player.password);
      const me = await b.http().get('/api/me').set('Cookie', cookie).expect(200);
      expect(me.body).toMatchObject({ emailVerified: true, linked: true, balance: 100 });
      const session = await b.http().post('/api/play/sessions').set('Cookie', cookie).send({ gameSlug: 'coin-clicker' }).expect(201);
      expect(session.body).toMatchObject({ testMode: false, balance: 100, coinsPerCredit: DEMO.game.coinsPerCredit });
      await logIn(b, DEMO.developer.email, DEMO.developer.password);
      await logIn(b, DEMO.admin.email, DEMO.admin.password);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('leaves a database that is in use alone, and seeds nothing when SEED_DEMO is off', async () => {
    const off: TestApp = await createTestApp({ env: { SEED_DEMO: 'false' } });
    try {
      await off.http().post('/auth/signup').send({ email: 'someone@example.test', password: 'long-enough-1', displayName: 'Someone' }).expect(201);
      expect((await off.db.query('SELECT count(*)::int AS n FROM games')).rows[0].n).toBe(0);
    } finally {
      await off.close();
    }
    const on = await createTestApp({ databaseUrl: off.databaseUrl, env: { SEED_DEMO: 'true' } });
    try {
      expect((await on.db.query('SELECT count(*)::int AS n FROM games')).rows[0].n).toBe(0);
      expect((await on.db.query('SELECT email FROM accounts')).rows).toEqual([{ email: 'someone@example.test' }]);
    } finally {
      await on.close();
    }
  });
});
