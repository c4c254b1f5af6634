import { TestApp } from '../support/app';
import {
  adminCookie,
  createAchievement,
  createDeveloper,
  createGame,
  createWorldApp,
  Developer,
  publishGame,
  signUpVerifiedPlayer,
  unique,
} from '../support/factories';
import { startSession } from '../support/play';

describe('public catalogue (CONTRACT §5, §16.13, §16.19)', () => {
  let t: TestApp;
  let dev: Developer;

  beforeAll(async () => {
    // A database of its own: the order of the whole catalogue is asserted.
    t = await createWorldApp();
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  describe('GET /api/games', () => {
    it('lists published games only, newest first by first publication, in pages joined by an opaque cursor', async () => {
      const empty = await t.http().get('/api/games').expect(200);
      expect(empty.body).toEqual({ games: [], nextCursor: null });

      const published = [];
      for (let i = 0; i < 5; i++) published.push(await publishGame(t, dev, { coinsPerCredit: (i % 5) + 1, title: `Game ${i}` }));
      await createGame(t, dev); // never published
      const suspended = await publishGame(t, dev);
      await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
      const unpublished = await publishGame(t, dev);
      await t.http().post(`/api/portal/games/${unpublished.gameId}/unpublish`).set('Cookie', dev.cookie).expect(200);

      const newestFirst = [...published].reverse().map((g) => g.slug);
      const all = await t.http().get('/api/games').expect(200);
      expect(all.body.nextCursor).toBeNull();
      expect(all.body.games.map((g: { slug: string }) => g.slug)).toEqual(newestFirst);
      expect(all.body.games[0]).toEqual({ slug: published[4]!.slug, title: 'Game 4', coinsPerCredit: 5, description: null, thumbnailUrl: null });

      const first = await t.http().get('/api/games?limit=2').expect(200);
      expect(first.body.games.map((g: { slug: string }) => g.slug)).toEqual(newestFirst.slice(0, 2));
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await t.http().get('/api/games').query({ limit: 2, cursor: first.body.nextCursor }).expect(200);
      expect(second.body.games.map((g: { slug: string }) => g.slug)).toEqual(newestFirst.slice(2, 4));
      const third = await t.http().get('/api/games').query({ limit: 2, cursor: second.body.nextCursor }).expect(200);
      expect(third.body).toEqual({ games: [expect.objectContaining({ slug: newestFirst[4] })], nextCursor: null });
    });

    it('keeps a republished game at the place of its first publication', async () => {
      const before = await t.http().get('/api/games?limit=100').expect(200);
      const oldest = before.body.games[before.body.games.length - 1];
      const game = (await t.http().get('/api/portal/games').set('Cookie', dev.cookie)).body.find((g: { slug: string }) => g.slug === oldest.slug);
      await t.http().post(`/api/portal/games/${game.gameId}/unpublish`).set('Cookie', dev.cookie).expect(200);
      await t.http().post(`/api/portal/games/${game.gameId}/publish`).set('Cookie', dev.cookie).send({ versionId: game.currentVersionId }).expect(200);
      const after = await t.http().get('/api/games?limit=100').expect(200);
      expect(after.body.games).toEqual(before.body.games);
    });

    it.each([
      ['limit 0', { limit: '0' }],
      ['limit 101', { limit: '101' }],
      ['a non-numeric limit', { limit: 'ten' }],
      ['a fractional limit', { limit: '2.5' }],
      ['an unreadable cursor', { cursor: 'not-a-cursor' }],
      ['a cursor of valid base64 but wrong content', { cursor: Buffer.from('{"a":1}').toString('base64url') }],
      ['a cursor with a bad id', { cursor: Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000000Z', 'x'])).toString('base64url') }],
      ['a cursor with an impossible date', { cursor: Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000'])).toString('base64url') }],
      ['a cursor that is not JSON', { cursor: Buffer.from('[1,').toString('base64url') }],
      ['an unknown parameter', { page: '2' }],
    ])('answers 400 INVALID_REQUEST for %s', async (_name, query) => {
      const res = await t.http().get('/api/games').query(query).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('GET /api/games/{slug}', () => {
    it('shows a published game with its active achievements; secret ones masked and nothing unlocked for anonymous callers', async () => {
      const game = await publishGame(t, dev, { coinsPerCredit: 2, title: 'Masked' });
      await createAchievement(t, dev, game.gameId, { key: 'open', name: 'Open one', description: 'Everyone sees me.', iconKey: 'star' });
      await createAchievement(t, dev, game.gameId, { key: 'hidden', name: 'Hidden one', description: 'A surprise.', iconKey: 'skull', secret: true });
      await createAchievement(t, dev, game.gameId, { key: 'old', name: 'Old', description: 'Retired.', iconKey: 'moon' });
      await t.http().post(`/api/portal/games/${game.gameId}/achievements/old/retire`).set('Cookie', dev.cookie).expect(200);

      const res = await t.http().get(`/api/games/${game.slug}`).expect(200);
      expect(res.body).toEqual({
        slug: game.slug,
        title: 'Masked',
        coinsPerCredit: 2,
        description: null,
        thumbnailUrl: null,
        achievements: [
          { key: 'open', name: 'Open one', description: 'Everyone sees me.', iconKey: 'star', secret: false, unlocked: false, unlockedAt: null },
          { key: 'hidden', name: '???', description: '???', iconKey: 'skull', secret: true, unlocked: false, unlockedAt: null },
        ],
      });
    });

    it('fills in the signed-in caller\'s unlocks and unmasks the secret ones they unlocked, for them only', async () => {
      const game = await publishGame(t, dev);
      await createAchievement(t, dev, game.gameId, { key: 'secret-win', name: 'Secret win', description: 'Found it.', iconKey: 'gem', secret: true });
      await createAchievement(t, dev, game.gameId, { key: 'plain', name: 'Plain', description: 'Plain.', iconKey: 'coin' });
      const player = await signUpVerifiedPlayer(t);
      const { sessionId } = await startSession(t, player, game.slug);
      const unlock = await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key: 'secret-win' }).expect(200);

      const mine = await t.http().get(`/api/games/${game.slug}`).set('Cookie', player.cookie).expect(200);
      expect(mine.body.achievements).toEqual([
        { key: 'secret-win', name: 'Secret win', description: 'Found it.', iconKey: 'gem', secret: true, unlocked: true, unlockedAt: unlock.body.unlockedAt },
        { key: 'plain', name: 'Plain', description: 'Plain.', iconKey: 'coin', secret: false, unlocked: false, unlockedAt: null },
      ]);

      const someoneElse = await signUpVerifiedPlayer(t);
      const theirs = await t.http().get(`/api/games/${game.slug}`).set('Cookie', someoneElse.cookie).expect(200);
      expect(theirs.body.achievements[0]).toMatchObject({ name: '???', description: '???', unlocked: false, unlockedAt: null });
      const anonymous = await t.http().get(`/api/games/${game.slug}`).expect(200);
      expect(anonymous.body.achievements[0]).toMatchObject({ name: '???', unlocked: false });
    });

    it('answers 404 NOT_FOUND for unknown, unpublished and suspended games alike', async () => {
      const never = await createGame(t, dev);
      const suspended = await publishGame(t, dev);
      await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
      for (const slug of [unique('missing'), never.slug, suspended.slug]) {
        const res = await t.http().get(`/api/games/${slug}`).expect(404);
        expect(res.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
      }
    });

    it('answers 400 INVALID_REQUEST for a slug outside ^[a-z0-9-]+$ or over 64 characters', async () => {
      for (const slug of ['Bad-Slug', 'bad_slug', 'a'.repeat(65)]) {
        const res = await t.http().get(`/api/games/${slug}`).expect(400);
        expect(res.body.error).toBe('INVALID_REQUEST');
      }
    });
  });
});
