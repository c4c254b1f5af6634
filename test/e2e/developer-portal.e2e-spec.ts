import { TestApp } from '../support/app';
import {
  adminCookie,
  createAchievement,
  createDeveloper,
  createGame,
  createWorldApp,
  Developer,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
  unique,
} from '../support/factories';
import { startSession } from '../support/play';

const MAX = 9007199254740991;
const LONG_ID = 'a'.repeat(65);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('developer portal (CONTRACT §3)', () => {
  let t: TestApp;
  let dev: Developer;
  let other: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
    other = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  const as = (who: { cookie: string }) => ({
    get: (path: string) => t.http().get(path).set('Cookie', who.cookie),
    post: (path: string, body?: object) => t.http().post(path).set('Cookie', who.cookie).send(body),
    patch: (path: string, body?: object) => t.http().patch(path).set('Cookie', who.cookie).send(body),
    delete: (path: string) => t.http().delete(path).set('Cookie', who.cookie),
  });

  describe('POST /api/portal/developer', () => {
    it('answers 201 { developerId, displayName }, adds role developer; a repeat answers 200 with the same developer', async () => {
      const user = await signUpVerifiedPlayer(t);
      const first = await as(user).post('/api/portal/developer', { displayName: 'Pixel Forge' }).expect(201);
      expect(first.body).toEqual({ developerId: expect.any(String), displayName: 'Pixel Forge' });
      const me = await as(user).get('/api/me').expect(200);
      expect(me.body.roles).toEqual(['player', 'developer']);
      const again = await as(user).post('/api/portal/developer', { displayName: 'Renamed' }).expect(200);
      expect(again.body).toEqual(first.body);
    });

    it('creates one developer for concurrent requests: one 201, the rest 200 with the same id', async () => {
      const user = await signUpVerifiedPlayer(t);
      const answers = await Promise.all(Array.from({ length: 6 }, () => as(user).post('/api/portal/developer', { displayName: 'Racers' })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.developerId)).size).toBe(1);
    });

    it('answers 403 EMAIL_NOT_VERIFIED to an unverified account and 401 signed out', async () => {
      const user = await signUpPlayer(t, { verified: false });
      const res = await as(user).post('/api/portal/developer', { displayName: 'X' }).expect(403);
      expect(res.body.error).toBe('EMAIL_NOT_VERIFIED');
      await t.http().post('/api/portal/developer').send({ displayName: 'X' }).expect(401);
    });

    it('answers 400 for a missing or blank display name', async () => {
      const user = await signUpVerifiedPlayer(t);
      expect((await as(user).post('/api/portal/developer', {}).expect(400)).body.error).toBe('INVALID_REQUEST');
      await as(user).post('/api/portal/developer', { displayName: '   ' }).expect(400);
    });
  });

  describe('role developer required', () => {
    it.each([
      ['GET', '/api/portal/games'],
      ['POST', '/api/portal/games'],
      ['GET', `/api/portal/games/${UNKNOWN_ID}`],
      ['PATCH', `/api/portal/games/${UNKNOWN_ID}`],
      ['POST', `/api/portal/games/${UNKNOWN_ID}/versions`],
      ['GET', `/api/portal/games/${UNKNOWN_ID}/versions`],
      ['POST', `/api/portal/games/${UNKNOWN_ID}/publish`],
      ['POST', `/api/portal/games/${UNKNOWN_ID}/unpublish`],
      ['GET', `/api/portal/games/${UNKNOWN_ID}/achievements`],
      ['POST', `/api/portal/games/${UNKNOWN_ID}/achievements`],
      ['PATCH', `/api/portal/games/${UNKNOWN_ID}/achievements/some-key`],
      ['POST', `/api/portal/games/${UNKNOWN_ID}/achievements/some-key/retire`],
      ['POST', '/api/portal/keys'],
      ['GET', '/api/portal/keys'],
      ['DELETE', `/api/portal/keys/${UNKNOWN_ID}`],
    ])('%s %s answers 403 FORBIDDEN to a verified non-developer and 401 signed out', async (method, path) => {
      const player = await signUpVerifiedPlayer(t);
      const verb = method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
      const res = await t.http()[verb](path).set('Cookie', player.cookie).send({});
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
      const anonymous = await t.http()[verb](path).send({});
      expect(anonymous.status).toBe(401);
    });
  });

  describe('games', () => {
    it('creates an unpublished game with the default maxScore and lists it', async () => {
      const slug = unique('space');
      const res = await as(dev).post('/api/portal/games', { slug, title: 'Space', coinsPerCredit: 3 }).expect(201);
      expect(res.body).toEqual({
        gameId: expect.any(String),
        slug,
        title: 'Space',
        description: null,
        thumbnailUrl: null,
        coinsPerCredit: 3,
        maxScore: MAX,
        status: 'unpublished',
        currentVersionId: null,
        createdAt: expect.any(String),
      });
      const list = await as(dev).get('/api/portal/games').expect(200);
      expect(list.body).toEqual(expect.arrayContaining([res.body]));
      expect(list.body.every((g: { gameId: string }) => typeof g.gameId === 'string')).toBe(true);
      const one = await as(dev).get(`/api/portal/games/${res.body.gameId}`).expect(200);
      expect(one.body).toEqual(res.body);
    });

    it('keeps maxScore an exact JSON integer up to 2^53-1', async () => {
      const res = await as(dev).post('/api/portal/games', { slug: unique('max'), title: 'Max', coinsPerCredit: 1, maxScore: MAX }).expect(201);
      expect(res.text).toContain(`"maxScore":${MAX}`);
      const zero = await as(dev).post('/api/portal/games', { slug: unique('zero'), title: 'Zero', coinsPerCredit: 1, maxScore: 0 }).expect(201);
      expect(zero.body.maxScore).toBe(0);
    });

    it('answers 409 SLUG_TAKEN for a taken slug, also another developer\'s', async () => {
      const slug = unique('taken');
      await as(dev).post('/api/portal/games', { slug, title: 'A', coinsPerCredit: 1 }).expect(201);
      const res = await as(other).post('/api/portal/games', { slug, title: 'B', coinsPerCredit: 1 }).expect(409);
      expect(res.body).toEqual({ error: 'SLUG_TAKEN', message: expect.any(String) });
    });

    it.each([
      ['a slug with capitals', { slug: 'Bad-Slug' }, 'slug'],
      ['a slug with a space', { slug: 'bad slug' }, 'slug'],
      ['a slug over 64 characters', { slug: 'a'.repeat(65) }, 'slug'],
      ['an empty title', { title: '' }, 'title'],
      ['a title over 80 characters', { title: 'x'.repeat(81) }, 'title'],
      ['coinsPerCredit 0', { coinsPerCredit: 0 }, 'coinsPerCredit'],
      ['coinsPerCredit 6', { coinsPerCredit: 6 }, 'coinsPerCredit'],
      ['coinsPerCredit 1.5', { coinsPerCredit: 1.5 }, 'coinsPerCredit'],
      ['coinsPerCredit as a string', { coinsPerCredit: '2' }, 'coinsPerCredit'],
      ['a negative maxScore', { maxScore: -1 }, 'maxScore'],
      ['a maxScore above 2^53-1', { maxScore: MAX + 2 }, 'maxScore'],
      ['an extra property', { status: 'published' }, 'status'],
    ])('answers 400 INVALID_REQUEST for %s', async (_name, change, field) => {
      const res = await as(dev).post('/api/portal/games', { slug: unique('v'), title: 'T', coinsPerCredit: 1, ...change }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('PATCH changes title, price and maxScore and answers 200 with the game', async () => {
      const game = await createGame(t, dev, { coinsPerCredit: 1 });
      const res = await as(dev).patch(`/api/portal/games/${game.gameId}`, { title: 'Renamed', coinsPerCredit: 5, maxScore: 1000 }).expect(200);
      expect(res.body).toMatchObject({ gameId: game.gameId, slug: game.slug, title: 'Renamed', coinsPerCredit: 5, maxScore: 1000, status: 'unpublished' });
      const partial = await as(dev).patch(`/api/portal/games/${game.gameId}`, { title: 'Only title' }).expect(200);
      expect(partial.body).toMatchObject({ title: 'Only title', coinsPerCredit: 5, maxScore: 1000 });
      await as(dev).patch(`/api/portal/games/${game.gameId}`, { coinsPerCredit: 9 }).expect(400);
      await as(dev).patch(`/api/portal/games/${game.gameId}`, { slug: 'new-slug' }).expect(400);
    });

    it('answers 400 for an id over 64 characters and 404 NOT_FOUND for an unknown or non-uuid id', async () => {
      expect((await as(dev).get(`/api/portal/games/${LONG_ID}`).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await as(dev).get(`/api/portal/games/${UNKNOWN_ID}`).expect(404)).body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
      expect((await as(dev).get('/api/portal/games/not-a-uuid').expect(404)).body.error).toBe('NOT_FOUND');
      await as(dev).patch(`/api/portal/games/${LONG_ID}`, { title: 'x' }).expect(400);
      await as(dev).post(`/api/portal/games/${LONG_ID}/publish`, { versionId: UNKNOWN_ID }).expect(400);
    });
  });

  describe('versions and publishing', () => {
    it('creates pending versions and lists them newest first', async () => {
      const game = await createGame(t, dev);
      const second = await as(dev).post(`/api/portal/games/${game.gameId}/versions`, { label: '2.0', entryUrl: '/demo-games/coin-clicker/index.html' }).expect(201);
      expect(second.body).toEqual({ versionId: expect.any(String), label: '2.0', entryUrl: '/demo-games/coin-clicker/index.html', status: 'pending', createdAt: expect.any(String) });
      const list = await as(dev).get(`/api/portal/games/${game.gameId}/versions`).expect(200);
      expect(list.body.map((v: { versionId: string }) => v.versionId)).toEqual([second.body.versionId, game.versionId]);
    });

    it.each([
      ['a relative path without /', 'index.html'],
      ['a protocol-relative URL', '//evil.example/x.js'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['an ftp URL', 'ftp://example.com/game'],
      ['an empty URL', ''],
    ])('refuses %s as entryUrl with 400', async (_name, entryUrl) => {
      const game = await createGame(t, dev);
      const res = await as(dev).post(`/api/portal/games/${game.gameId}/versions`, { label: '1', entryUrl }).expect(400);
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'entryUrl' })]);
    });

    it('accepts any absolute http(s) URL, IP hosts and ports included', async () => {
      const game = await createGame(t, dev);
      for (const entryUrl of ['http://127.0.0.1:8080/game/index.html', 'https://games.example.com/a?b=c']) {
        await as(dev).post(`/api/portal/games/${game.gameId}/versions`, { label: '1', entryUrl }).expect(201);
      }
      await as(dev).post(`/api/portal/games/${game.gameId}/versions`, { label: 'x'.repeat(41), entryUrl: '/a' }).expect(400);
    });

    it('publishes an approved version: status published, currentVersionId set; unpublish answers 200 unpublished', async () => {
      const game = await createGame(t, dev);
      const pending = await as(dev).post(`/api/portal/games/${game.gameId}/publish`, { versionId: game.versionId }).expect(409);
      expect(pending.body).toEqual({ error: 'VERSION_NOT_APPROVED', message: expect.any(String) });
      await t.http().post(`/api/admin/versions/${game.versionId}/approve`).set('Cookie', await adminCookie(t)).expect(200);
      const published = await as(dev).post(`/api/portal/games/${game.gameId}/publish`, { versionId: game.versionId }).expect(200);
      expect(published.body).toMatchObject({ gameId: game.gameId, status: 'published', currentVersionId: game.versionId });
      const unpublished = await as(dev).post(`/api/portal/games/${game.gameId}/unpublish`).expect(200);
      expect(unpublished.body).toMatchObject({ gameId: game.gameId, status: 'unpublished' });
    });

    it('answers 409 VERSION_NOT_APPROVED for a rejected version', async () => {
      const game = await createGame(t, dev);
      await t.http().post(`/api/admin/versions/${game.versionId}/reject`).set('Cookie', await adminCookie(t)).send({ reason: 'broken' }).expect(200);
      const res = await as(dev).post(`/api/portal/games/${game.gameId}/publish`, { versionId: game.versionId }).expect(409);
      expect(res.body.error).toBe('VERSION_NOT_APPROVED');
    });

    it('answers 409 GAME_SUSPENDED for publish and unpublish of a suspended game', async () => {
      const game = await publishGame(t, dev);
      await t.http().post(`/api/admin/games/${game.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
      const publish = await as(dev).post(`/api/portal/games/${game.gameId}/publish`, { versionId: game.versionId }).expect(409);
      expect(publish.body).toEqual({ error: 'GAME_SUSPENDED', message: expect.any(String) });
      expect((await as(dev).post(`/api/portal/games/${game.gameId}/unpublish`).expect(409)).body.error).toBe('GAME_SUSPENDED');
    });

    it('answers 404 for a version of another game and 400 without versionId', async () => {
      const a = await createGame(t, dev);
      const b = await createGame(t, dev);
      await t.http().post(`/api/admin/versions/${b.versionId}/approve`).set('Cookie', await adminCookie(t)).expect(200);
      expect((await as(dev).post(`/api/portal/games/${a.gameId}/publish`, { versionId: b.versionId }).expect(404)).body.error).toBe('NOT_FOUND');
      await as(dev).post(`/api/portal/games/${a.gameId}/publish`, { versionId: 'nope' }).expect(404);
      await as(dev).post(`/api/portal/games/${a.gameId}/publish`, {}).expect(400);
    });
  });

  describe('achievement definitions (spec §2.7)', () => {
    it('creates, lists, changes and retires an achievement', async () => {
      const game = await createGame(t, dev);
      const base = `/api/portal/games/${game.gameId}/achievements`;
      const created = await as(dev).post(base, { key: 'first-coin', name: 'First coin', description: 'Insert a coin.', iconKey: 'coin' }).expect(201);
      expect(created.body).toEqual({ key: 'first-coin', name: 'First coin', description: 'Insert a coin.', iconKey: 'coin', secret: false, status: 'active', createdAt: expect.any(String), unlockCount: 0 });
      const changed = await as(dev).patch(`${base}/first-coin`, { key: 'coin_1', name: 'Coin!', description: '', iconKey: 'gem', secret: true }).expect(200);
      expect(changed.body).toMatchObject({ key: 'coin_1', name: 'Coin!', description: '', iconKey: 'gem', secret: true, status: 'active' });
      const retired = await as(dev).post(`${base}/coin_1/retire`).expect(200);
      expect(retired.body).toMatchObject({ key: 'coin_1', status: 'retired' });
      const list = await as(dev).get(base).expect(200);
      expect(list.body).toEqual([retired.body]);
      await as(dev).patch(`${base}/first-coin`, { name: 'gone' }).expect(404);
    });

    it('carries unlockCount on every answer: distinct players outside test mode, kept when retired (CONTRACT §17)', async () => {
      const game = await publishGame(t, dev, { entryUrl: 'https://games.example.test/count.html' });
      const base = `/api/portal/games/${game.gameId}/achievements`;
      await createAchievement(t, dev, game.gameId, { key: 'counted' });
      await createAchievement(t, dev, game.gameId, { key: 'untouched' });
      const unlockIn = async (who: { cookie: string }, preview = false) => {
        const { sessionId } = await startSession(t, who, game.slug, preview ? { preview: true } : {});
        await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', who.cookie).send({ key: 'counted' }).expect(200);
      };
      const first = await signUpVerifiedPlayer(t);
      const second = await signUpVerifiedPlayer(t);
      await unlockIn(first);
      await unlockIn(first); // a repeat is the same player
      await unlockIn(second);
      await unlockIn(dev, true); // the owner's preview: test mode, never counted
      const list = await as(dev).get(base).expect(200);
      expect(list.body.map((a: { key: string; unlockCount: number }) => [a.key, a.unlockCount])).toEqual([['counted', 2], ['untouched', 0]]);
      expect((await as(dev).patch(`${base}/counted`, { name: 'Counted!' }).expect(200)).body).toMatchObject({ key: 'counted', unlockCount: 2 });
      expect((await as(dev).post(`${base}/counted/retire`).expect(200)).body).toMatchObject({ status: 'retired', unlockCount: 2 });
      expect((await as(dev).post(`${base}/counted/retire`).expect(200)).body).toMatchObject({ status: 'retired', unlockCount: 2 });
      expect((await as(dev).get(base).expect(200)).body[0]).toMatchObject({ key: 'counted', status: 'retired', unlockCount: 2 });
      expect((await as(dev).post(base, { key: 'fresh', name: 'n', description: 'd', iconKey: 'star' }).expect(201)).body.unlockCount).toBe(0);
    });

    it('accepts every one of the 18 icon keys and refuses others', async () => {
      const game = await createGame(t, dev);
      const icons = ['trophy', 'coin', 'joystick', 'calendar', 'star', 'gem', 'pen', 'heart', 'fire', 'crown', 'rocket', 'ticket', 'moon', 'bolt', 'target', 'shield', 'skull', 'map'];
      for (const iconKey of icons) await createAchievement(t, dev, game.gameId, { key: `icon-${iconKey}`, iconKey });
      const res = await as(dev).post(`/api/portal/games/${game.gameId}/achievements`, { key: 'bad-icon', name: 'n', description: 'd', iconKey: 'smiley' }).expect(400);
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'iconKey' })]);
    });

    it.each([
      ['a key with capitals', { key: 'First' }, 'key'],
      ['a key starting with -', { key: '-first' }, 'key'],
      ['a key starting with _', { key: '_first' }, 'key'],
      ['a key over 48 characters', { key: 'a'.repeat(49) }, 'key'],
      ['an empty key', { key: '' }, 'key'],
      ['an empty name', { name: '' }, 'name'],
      ['a name over 40 characters', { name: 'x'.repeat(41) }, 'name'],
      ['a description over 160 characters', { description: 'x'.repeat(161) }, 'description'],
      ['a non-boolean secret', { secret: 'yes' }, 'secret'],
      ['an extra property', { xp: 100 }, 'xp'],
    ])('answers 400 INVALID_REQUEST for %s', async (_name, change, field) => {
      const game = await createGame(t, dev);
      const body = { key: 'ok-key', name: 'Name', description: 'Description', iconKey: 'star', ...change };
      const res = await as(dev).post(`/api/portal/games/${game.gameId}/achievements`, body).expect(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('accepts the limits exactly: 48-character key, 40-character name, 160-character description', async () => {
      const game = await createGame(t, dev);
      const key = `a${'b'.repeat(46)}9`;
      await as(dev).post(`/api/portal/games/${game.gameId}/achievements`, { key, name: 'n'.repeat(40), description: 'd'.repeat(160), iconKey: 'star' }).expect(201);
    });

    it('answers 409 ACHIEVEMENT_KEY_TAKEN for a duplicate key, on create and on rename', async () => {
      const game = await createGame(t, dev);
      await createAchievement(t, dev, game.gameId, { key: 'one' });
      await createAchievement(t, dev, game.gameId, { key: 'two' });
      const dup = await as(dev).post(`/api/portal/games/${game.gameId}/achievements`, { key: 'one', name: 'n', description: 'd', iconKey: 'star' }).expect(409);
      expect(dup.body).toEqual({ error: 'ACHIEVEMENT_KEY_TAKEN', message: expect.any(String) });
      expect((await as(dev).patch(`/api/portal/games/${game.gameId}/achievements/two`, { key: 'one' }).expect(409)).body.error).toBe('ACHIEVEMENT_KEY_TAKEN');
    });

    it('answers 409 ACHIEVEMENT_LIMIT_REACHED for the 51st, retired ones included', async () => {
      const game = await createGame(t, dev);
      for (let i = 1; i <= 50; i++) await createAchievement(t, dev, game.gameId, { key: `a${i}` });
      await as(dev).post(`/api/portal/games/${game.gameId}/achievements/a1/retire`).expect(200);
      const res = await as(dev).post(`/api/portal/games/${game.gameId}/achievements`, { key: 'a51', name: 'n', description: 'd', iconKey: 'star' }).expect(409);
      expect(res.body).toEqual({ error: 'ACHIEVEMENT_LIMIT_REACHED', message: expect.any(String) });
      const count = await t.db.query('SELECT count(*)::int AS n FROM achievements WHERE game_id = $1', [game.gameId]);
      expect(count.rows[0].n).toBe(50);
    });

    it('creates at most 50 under concurrent requests', async () => {
      const game = await createGame(t, dev);
      const answers = await Promise.all(
        Array.from({ length: 55 }, (_, i) =>
          as(dev).post(`/api/portal/games/${game.gameId}/achievements`, { key: `c${i}`, name: 'n', description: 'd', iconKey: 'star' }),
        ),
      );
      expect(answers.filter((r) => r.status === 201)).toHaveLength(50);
      expect(answers.filter((r) => r.status === 409).every((r) => r.body.error === 'ACHIEVEMENT_LIMIT_REACHED')).toBe(true);
      expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
    });

    it('locks the key once a player unlocked it (409 ACHIEVEMENT_KEY_LOCKED); other fields still change', async () => {
      const game = await publishGame(t, dev);
      await createAchievement(t, dev, game.gameId, { key: 'locked-one' });
      const base = `/api/portal/games/${game.gameId}/achievements`;
      // Before any unlock the key may change.
      await as(dev).patch(`${base}/locked-one`, { key: 'locked-two' }).expect(200);
      const player = await signUpVerifiedPlayer(t);
      const { sessionId } = await startSession(t, player, game.slug);
      await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key: 'locked-two' }).expect(200);
      const res = await as(dev).patch(`${base}/locked-two`, { key: 'renamed' }).expect(409);
      expect(res.body).toEqual({ error: 'ACHIEVEMENT_KEY_LOCKED', message: expect.any(String) });
      const same = await as(dev).patch(`${base}/locked-two`, { key: 'locked-two', name: 'New name' }).expect(200);
      expect(same.body).toMatchObject({ key: 'locked-two', name: 'New name' });
    });

    it('answers 400 for a path key outside the pattern and 404 for an unknown key', async () => {
      const game = await createGame(t, dev);
      await as(dev).patch(`/api/portal/games/${game.gameId}/achievements/BAD`, { name: 'x' }).expect(400);
      expect((await as(dev).post(`/api/portal/games/${game.gameId}/achievements/nope/retire`).expect(404)).body.error).toBe('NOT_FOUND');
    });
  });

  describe('another developer\'s resources answer 404 NOT_FOUND', () => {
    it('games, versions, publishing and achievements', async () => {
      const game = await publishGame(t, dev);
      await createAchievement(t, dev, game.gameId, { key: 'mine' });
      const g = `/api/portal/games/${game.gameId}`;
      const attempts = [
        as(other).get(g),
        as(other).patch(g, { title: 'Stolen' }),
        as(other).get(`${g}/versions`),
        as(other).post(`${g}/versions`, { label: 'evil', entryUrl: 'https://evil.example/' }),
        as(other).post(`${g}/publish`, { versionId: game.versionId }),
        as(other).post(`${g}/unpublish`),
        as(other).get(`${g}/achievements`),
        as(other).post(`${g}/achievements`, { key: 'theirs', name: 'n', description: 'd', iconKey: 'star' }),
        as(other).patch(`${g}/achievements/mine`, { name: 'Stolen' }),
        as(other).post(`${g}/achievements/mine/retire`),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('NOT_FOUND');
      }
      const list = await as(other).get('/api/portal/games').expect(200);
      expect(list.body.map((x: { gameId: string }) => x.gameId)).not.toContain(game.gameId);
      const after = await as(dev).get(g).expect(200);
      expect(after.body).toMatchObject({ title: `Game ${game.slug}`, status: 'published' });
      const achievements = await as(dev).get(`${g}/achievements`).expect(200);
      expect(achievements.body).toEqual([expect.objectContaining({ key: 'mine', name: 'First steps', status: 'active' })]);
    });
  });
});
