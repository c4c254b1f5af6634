/**
 * The admin console's listings (CONTRACT §18): the review queue, games, user search and a game's
 * scores — roles, validation, order, cursor paging. Each describe block has its own app, so a
 * listing holds exactly what the block made.
 */
import type { TestApp } from '../support/app';
import { Query, SignedInAdmin, signedInAdmin, walkPages } from '../support/admin';
import {
  adminCookie,
  createWorldApp,
  createApiKey,
  createDeveloper,
  createGame,
  Developer,
  publishGame,
  signUpPlayer,
  signUpVerifiedPlayer,
  unique,
} from '../support/factories';
import { fundPlayer, paidSession, playAndScore, postInitials, postScore, postTrustedScore, startSession } from '../support/play';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const UNREADABLE = ['nope', Buffer.from('["2026-01-01"]').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url')];

describe('admin listings: roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWorldApp();
    await signedInAdmin(t);
  });
  afterAll(async () => t.close());

  it.each([
    ['GET /api/admin/versions', '/api/admin/versions'],
    ['GET /api/admin/games', '/api/admin/games'],
    ['GET /api/admin/users', '/api/admin/users?query=a'],
    ['GET /api/admin/games/{gameId}/scores', `/api/admin/games/${UNKNOWN_ID}/scores`],
    ['GET /api/admin/audit', '/api/admin/audit'],
  ])('%s answers 401 signed out and 403 FORBIDDEN to players and developers', async (_name, path) => {
    const player = await signUpVerifiedPlayer(t);
    const dev = await createDeveloper(t);
    expect((await t.http().get(path)).status).toBe(401);
    for (const cookie of [player.cookie, dev.cookie]) {
      const res = await t.http().get(path).set('Cookie', cookie);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    expect((await t.http().get(path).set('Cookie', await adminCookie(t))).status).toBe(path.includes(UNKNOWN_ID) ? 404 : 200);
  });
});

describe('GET /api/admin/versions', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    dev = await createDeveloper(t, { displayName: 'Review Studio' });
  });
  afterAll(async () => t.close());

  it('lists pending versions oldest first with their game, approved and rejected newest first, and pages with cursors', async () => {
    const games = [await createGame(t, dev, { title: 'First Game' }), await createGame(t, dev, { title: 'Second Game' })];
    const versionIds = [games[0]!.versionId, games[1]!.versionId];
    for (const [i, game] of games.entries()) {
      for (const label of ['2.0.0', '3.0.0']) {
        const res = await t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', dev.cookie).send({ label, entryUrl: `/games/${i}/${label}/index.html` }).expect(201);
        versionIds.push(res.body.versionId);
      }
    }
    const created = await t.db.query<{ id: string }>('SELECT id FROM game_versions ORDER BY created_at, id');
    const oldestFirst = created.rows.map((r) => r.id);
    expect(oldestFirst.sort()).toEqual([...versionIds].sort());

    const pending = await admin.get('/api/admin/versions').expect(200);
    expect(pending.body.nextCursor).toBeNull();
    expect(pending.body.versions.map((v: { versionId: string }) => v.versionId)).toEqual(created.rows.map((r) => r.id));
    expect(pending.body.versions[0]).toEqual({
      versionId: games[0]!.versionId,
      gameId: games[0]!.gameId,
      gameSlug: games[0]!.slug,
      gameTitle: 'First Game',
      label: '1.0.0',
      entryUrl: 'https://games.example.test/index.html',
      status: 'pending',
      reason: null,
      createdAt: expect.any(String),
    });
    expect((await admin.get('/api/admin/versions', { status: 'pending' }).expect(200)).body).toEqual(pending.body);

    const paged = await walkPages<{ versionId: string }>(admin, '/api/admin/versions', 'versions', { limit: 4 });
    expect(paged.sizes).toEqual([4, 2]);
    expect(paged.items.map((v) => v.versionId)).toEqual(created.rows.map((r) => r.id));

    // Review some: approve the 1st and 3rd oldest, reject the 2nd and 5th (one with a reason).
    const ids = created.rows.map((r) => r.id);
    await admin.post(`/api/admin/versions/${ids[0]}/approve`).expect(200);
    await admin.post(`/api/admin/versions/${ids[2]}/approve`).expect(200);
    await admin.post(`/api/admin/versions/${ids[1]}/reject`, { reason: 'Blank screen.' }).expect(200);
    await admin.post(`/api/admin/versions/${ids[4]}/reject`, {}).expect(200);

    const stillPending = await admin.get('/api/admin/versions').expect(200);
    expect(stillPending.body.versions.map((v: { versionId: string }) => v.versionId)).toEqual([ids[3], ids[5]]);
    // Newest first by createdAt: ids[2] was created after ids[0].
    const approved = await walkPages<{ versionId: string; status: string }>(admin, '/api/admin/versions', 'versions', { status: 'approved', limit: 1 });
    expect(approved.items.map((v) => [v.versionId, v.status])).toEqual([[ids[2], 'approved'], [ids[0], 'approved']]);
    expect(approved.sizes).toEqual([1, 1]);
    const rejected = (await admin.get('/api/admin/versions', { status: 'rejected' }).expect(200)).body.versions;
    expect(rejected.map((v: { versionId: string; reason: string | null }) => [v.versionId, v.reason])).toEqual([[ids[4], null], [ids[1], 'Blank screen.']]);
  });

  it('answers 400 INVALID_REQUEST for an unknown status, a bad limit, unknown parameters and unreadable cursors', async () => {
    for (const query of [{ status: 'published' }, { limit: 0 }, { limit: 101 }, { limit: 'x' }, { page: 2 }, { cursor: 'x'.repeat(513) }] as Query[]) {
      const res = await admin.get('/api/admin/versions', query);
      expect([res.status, res.body.error]).toEqual([400, 'INVALID_REQUEST']);
    }
    for (const cursor of UNREADABLE) {
      const res = await admin.get('/api/admin/versions', { cursor });
      expect([res.status, res.body.error]).toEqual([400, 'INVALID_REQUEST']);
    }
    // A cursor of another listing (a game's scores: three parts) is unreadable here too.
    const scoreCursor = Buffer.from(JSON.stringify(['10', '2026-01-01T00:00:00.000000Z', UNKNOWN_ID])).toString('base64url');
    expect((await admin.get('/api/admin/versions', { cursor: scoreCursor })).status).toBe(400);
  });
});

describe('GET /api/admin/games', () => {
  let t: TestApp;
  let admin: SignedInAdmin;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
  });
  afterAll(async () => t.close());

  it('lists every developer\'s games newest first with developerId and developerName; query matches slug or title in any case; status filters', async () => {
    const alpha = await createDeveloper(t, { displayName: 'Alpha Works' });
    const beta = await createDeveloper(t, { displayName: 'Beta Bits' });
    const tag = unique('zq').replace(/-/g, '');
    const first = await publishGame(t, alpha, { slug: `${tag}-rocket`, title: 'Rocket Race' });
    const second = await createGame(t, beta, { slug: `${tag}-maze`, title: 'Dark MAZE 100%' });
    const third = await publishGame(t, beta, { slug: `${tag}-pinball`, title: 'Pinball_Wizard' });
    await admin.post(`/api/admin/games/${third.gameId}/suspend`).expect(200);

    const all = await admin.get('/api/admin/games').expect(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([third.gameId, second.gameId, first.gameId]);
    expect(all.body.games[2]).toEqual({
      gameId: first.gameId,
      slug: first.slug,
      title: 'Rocket Race',
      // The game's face (CONTRACT §17.2), which the admin reviews too.
      description: null,
      thumbnailUrl: null,
      coinsPerCredit: 1,
      maxScore: 9007199254740991,
      status: 'published',
      currentVersionId: first.versionId,
      createdAt: expect.any(String),
      developerId: alpha.developerId,
      developerName: 'Alpha Works',
    });
    expect(all.body.games[0]).toMatchObject({ status: 'suspended', developerId: beta.developerId, developerName: 'Beta Bits' });

    const ids = async (query: Record<string, string>) => (await admin.get('/api/admin/games', query).expect(200)).body.games.map((g: { gameId: string }) => g.gameId);
    expect(await ids({ query: 'maze' })).toEqual([second.gameId]);
    expect(await ids({ query: 'rOCKET r' })).toEqual([first.gameId]);
    expect(await ids({ query: tag })).toEqual([third.gameId, second.gameId, first.gameId]);
    expect(await ids({ query: '100%' })).toEqual([second.gameId]);
    // LIKE's wildcards are literal: `%` and `_` match only themselves.
    expect(await ids({ query: '%' })).toEqual([second.gameId]);
    expect(await ids({ query: 'l_w' })).toEqual([third.gameId]);
    expect(await ids({ query: 'nothing-like-this' })).toEqual([]);
    expect(await ids({ status: 'published' })).toEqual([first.gameId]);
    expect(await ids({ status: 'unpublished' })).toEqual([second.gameId]);
    expect(await ids({ status: 'suspended', query: 'PINBALL' })).toEqual([third.gameId]);
    expect(await ids({ status: 'suspended', query: 'maze' })).toEqual([]);

    const paged = await walkPages<{ gameId: string }>(admin, '/api/admin/games', 'games', { limit: 2 });
    expect(paged.sizes).toEqual([2, 1]);
    expect(paged.items.map((g) => g.gameId)).toEqual([third.gameId, second.gameId, first.gameId]);
    const filteredPages = await walkPages<{ gameId: string }>(admin, '/api/admin/games', 'games', { limit: 1, query: tag, status: 'published' });
    expect(filteredPages.items.map((g) => g.gameId)).toEqual([first.gameId]);
  });

  it('answers 400 INVALID_REQUEST for an empty or long query, an unknown status, a bad limit and unreadable cursors', async () => {
    for (const query of [{ query: '' }, { query: 'x'.repeat(101) }, { status: 'deleted' }, { limit: 0 }, { developerId: UNKNOWN_ID }, ...UNREADABLE.map((cursor) => ({ cursor }))] as Query[]) {
      const res = await admin.get('/api/admin/games', query);
      expect([res.status, res.body.error]).toEqual([400, 'INVALID_REQUEST']);
    }
  });
});

describe('GET /api/admin/users', () => {
  let t: TestApp;
  let admin: SignedInAdmin;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
  });
  afterAll(async () => t.close());

  it('finds users by e-mail prefix or display name (any case) with balance, linked, bannedAt and walletFrozenAt', async () => {
    const tag = unique('find').replace(/-/g, '');
    const rich = await signUpVerifiedPlayer(t, { email: `${tag}.rich@example.test`, displayName: 'Rich Player' });
    await fundPlayer(t, rich, 75);
    const unlinked = await signUpPlayer(t, { linked: false, email: `other.${tag}@example.test`, displayName: `Quiet ${tag.toUpperCase()} One` });
    const dev = await createDeveloper(t, { displayName: 'Studio' });

    const byPrefix = await admin.get('/api/admin/users', { query: tag.toUpperCase() }).expect(200);
    // Only the e-mail that starts with the tag, and the display name that contains it.
    // By e-mail: "<tag>.rich@" before "other.<tag>@".
    expect(byPrefix.body.users).toEqual([
      {
        id: rich.accountId,
        email: rich.email,
        emailVerified: true,
        displayName: 'Rich Player',
        roles: ['player'],
        linked: true,
        balance: 75,
        bannedAt: null,
        walletFrozenAt: null,
      },
      {
        id: unlinked.accountId,
        email: unlinked.email,
        emailVerified: false,
        displayName: `Quiet ${tag.toUpperCase()} One`,
        roles: [],
        linked: false,
        balance: null,
        bannedAt: null,
        walletFrozenAt: null,
      },
    ]);
    // "other.<tag>" contains the tag in its e-mail but does not start with it: only its display name matched above.
    expect((await admin.get('/api/admin/users', { query: `${tag}.rich@EXAMPLE.test` }).expect(200)).body.users.map((u: { id: string }) => u.id)).toEqual([rich.accountId]);
    expect((await admin.get('/api/admin/users', { query: 'rich player' }).expect(200)).body.users.map((u: { id: string }) => u.id)).toContain(rich.accountId);
    expect((await admin.get('/api/admin/users', { query: dev.email }).expect(200)).body.users).toEqual([
      expect.objectContaining({ id: dev.accountId, roles: ['player', 'developer'], balance: 0 }),
    ]);
    // Wildcards are literal.
    expect((await admin.get('/api/admin/users', { query: '%' }).expect(200)).body.users).toEqual([]);
    expect((await admin.get('/api/admin/users', { query: '_' }).expect(200)).body.users).toEqual([]);
  });

  it('answers the first 50 matches, by e-mail, when more match', async () => {
    const tag = unique('many').replace(/-/g, '');
    const emails: string[] = [];
    for (let batch = 0; batch < 51; batch += 6) {
      const users = await Promise.all(
        Array.from({ length: Math.min(6, 51 - batch) }, (_, i) => signUpPlayer(t, { linked: false, email: `${tag}-${String(batch + i).padStart(2, '0')}@example.test` })),
      );
      emails.push(...users.map((u) => u.email));
    }
    const res = await admin.get('/api/admin/users', { query: tag }).expect(200);
    expect(res.body.users.map((u: { email: string }) => u.email)).toEqual(emails.sort().slice(0, 50));
  });

  it('answers 400 INVALID_REQUEST without a query, for an empty one and for one over 100 characters', async () => {
    for (const query of [{}, { query: '' }, { query: 'x'.repeat(101) }, { query: 'a', cursor: 'x' }] as Query[]) {
      const res = await admin.get('/api/admin/users', query);
      expect([res.status, res.body.error]).toEqual([400, 'INVALID_REQUEST']);
    }
    expect((await admin.get('/api/admin/users', { query: 'x'.repeat(100) })).status).toBe(200);
  });
});

describe('GET /api/admin/games/{gameId}/scores', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  it('lists every saved score best first (ties: earlier first) with source, initials, the player\'s user id and removedAt, and pages through ties', async () => {
    const game = await publishGame(t, dev);
    const ada = await signUpVerifiedPlayer(t);
    const bob = await signUpVerifiedPlayer(t);
    await fundPlayer(t, ada, 20);
    await fundPlayer(t, bob, 20);
    const liveKey = (await createApiKey(t, dev, 'live')).key;

    const a1 = await playAndScore(t, ada, game.slug, 500);
    await postInitials(t, ada, a1.sessionId, a1.scoreId as string, 'ADA').expect(200);
    const b1 = await playAndScore(t, bob, game.slug, 500);
    const a2 = await playAndScore(t, ada, game.slug, 900);
    const bobRound = await paidSession(t, bob, game.slug);
    const trusted = await postTrustedScore(t, liveKey, bobRound.insertionId, 500).expect(200);
    const a3 = await playAndScore(t, ada, game.slug, 20);
    await admin.post(`/api/admin/scores/${a3.scoreId}/remove`, { reason: 'Forged.' }).expect(200);
    // The owner's test-mode play stores nothing: it never shows.
    const unpublished = await createGame(t, dev);
    const { sessionId, testMode } = await startSession(t, dev, unpublished.slug);
    expect(testMode).toBe(true);
    await postScore(t, dev, sessionId, 99999).expect(200);
    expect((await admin.get(`/api/admin/games/${unpublished.gameId}/scores`).expect(200)).body).toEqual({ scores: [], nextCursor: null });

    const res = await admin.get(`/api/admin/games/${game.gameId}/scores`).expect(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.scores.map((s: { scoreId: string }) => s.scoreId)).toEqual([a2.scoreId, a1.scoreId, b1.scoreId, trusted.body.scoreId, a3.scoreId]);
    const stored = await t.db.query('SELECT achieved_at, removed_at FROM scores WHERE id = $1', [a3.scoreId]);
    expect(res.body.scores[4]).toEqual({
      scoreId: a3.scoreId,
      score: '20',
      initials: 'ADA',
      source: 'player',
      playerId: ada.accountId,
      achievedAt: stored.rows[0].achieved_at.toISOString(),
      removedAt: stored.rows[0].removed_at.toISOString(),
    });
    expect(res.body.scores[0]).toMatchObject({ score: '900', initials: 'ADA', removedAt: null, playerId: ada.accountId });
    expect(res.body.scores[2]).toMatchObject({ score: '500', initials: null, source: 'player', playerId: bob.accountId });
    expect(res.body.scores[3]).toMatchObject({ score: '500', initials: null, source: 'trusted', playerId: bob.accountId });

    for (const limit of [1, 2, 3]) {
      const paged = await walkPages<{ scoreId: string }>(admin, `/api/admin/games/${game.gameId}/scores`, 'scores', { limit });
      expect(paged.items.map((s) => s.scoreId)).toEqual(res.body.scores.map((s: { scoreId: string }) => s.scoreId));
    }
    expect((await admin.get(`/api/admin/games/${game.gameId}/scores`, { period: 'all' }).expect(200)).body).toEqual(res.body);
  });

  it('keeps this ISO week under period=week', async () => {
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const old = await playAndScore(t, player, game.slug, 5000);
    // An earlier week can only be reached by moving a stored score back in time.
    await t.db.query(
      `UPDATE scores SET achieved_at = achieved_at - interval '8 days',
              week_start = (date_trunc('week', (achieved_at - interval '8 days') AT TIME ZONE 'UTC'))::date WHERE id = $1`,
      [old.scoreId],
    );
    const recent = await playAndScore(t, player, game.slug, 10);
    const ids = async (period: string) => (await admin.get(`/api/admin/games/${game.gameId}/scores`, { period }).expect(200)).body.scores.map((s: { scoreId: string }) => s.scoreId);
    expect(await ids('all')).toEqual([old.scoreId, recent.scoreId]);
    expect(await ids('week')).toEqual([recent.scoreId]);
  });

  it('answers 404 NOT_FOUND for unknown games, 400 for long ids, bad periods and unreadable cursors', async () => {
    const game = await createGame(t, dev);
    expect((await admin.get(`/api/admin/games/${UNKNOWN_ID}/scores`).expect(404)).body.error).toBe('NOT_FOUND');
    await admin.get('/api/admin/games/not-a-game/scores').expect(404);
    for (const [path, query] of [
      [`/api/admin/games/${'a'.repeat(65)}/scores`, {}],
      [`/api/admin/games/${game.gameId}/scores`, { period: 'month' }],
      [`/api/admin/games/${game.gameId}/scores`, { limit: 101 }],
      ...UNREADABLE.map((cursor) => [`/api/admin/games/${game.gameId}/scores`, { cursor }]),
      [`/api/admin/games/${game.gameId}/scores`, { cursor: Buffer.from(JSON.stringify(['-1', '2026-01-01T00:00:00.000000Z', UNKNOWN_ID])).toString('base64url') }],
    ] as [string, Query][]) {
      const res = await admin.get(path, query);
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'INVALID_REQUEST']);
    }
    // Validation before the lookup: an unreadable cursor on an unknown game is 400.
    expect((await admin.get(`/api/admin/games/${UNKNOWN_ID}/scores`, { cursor: 'nope' })).status).toBe(400);
  });
});
