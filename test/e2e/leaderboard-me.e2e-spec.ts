/**
 * GET /api/games/{slug}/leaderboard/me (CONTRACT §17.2 "Beyond the top ten"): the caller's best
 * saved score of the period and its rank among all saved scores with initials (ties as §16.7),
 * `best: null` when none; play-ready checks (§2), then validation, then the game (§16.13, §16.17).
 */
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createGame, createWorldApp, CreatedGame, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { answerSchemaErrors } from '../support/openapi-schema';
import { fundPlayer, getBoard, playAndScore, postInitials } from '../support/play';

/** The operation as the OpenAPI document names it. */
const PATH = '/api/games/{slug}/leaderboard/me';

interface Best {
  score: string;
  initials: string | null;
  achievedAt: string;
  rank: number;
}

describe('GET /api/games/{slug}/leaderboard/me: your best, beyond the top ten', () => {
  let t: TestApp;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  function me(cookie: string | null, slug: string, query = '') {
    const req = t.http().get(`/api/games/${slug}/leaderboard/me${query}`);
    return cookie === null ? req : req.set('Cookie', cookie);
  }

  async function bestOf(player: { cookie: string }, slug: string, period?: 'all' | 'week'): Promise<Best | null> {
    const res = await me(player.cookie, slug, period ? `?period=${period}` : '');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { best: res.body.best === null ? null : expect.any(Object) } });
    return res.body.best;
  }

  async function fundedPlayer(): Promise<SignedUpUser> {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 100);
    return player;
  }

  /** One paid round scoring `score`; `initials` are typed when the score has none yet. Returns the score's id. */
  async function score(player: SignedUpUser, game: CreatedGame, value: number, initials?: string): Promise<string> {
    const result = await playAndScore(t, player, game.slug, value);
    const scoreId = result.scoreId as string;
    if (initials && result.initials === null) await postInitials(t, player, result.sessionId, scoreId, initials).expect(200);
    return scoreId;
  }

  async function achievedAtOf(scoreId: string): Promise<string> {
    return (await t.db.query<{ achieved_at: Date }>('SELECT achieved_at FROM scores WHERE id = $1', [scoreId])).rows[0]!.achieved_at.toISOString();
  }

  /** The score's place among the game's board scores, by a full sort: what the endpoint must count. */
  async function trueRank(gameId: string, scoreId: string): Promise<number> {
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM scores WHERE game_id = $1 AND initials IS NOT NULL AND removed_at IS NULL ORDER BY score DESC, achieved_at, id',
      [gameId],
    );
    return rows.findIndex((row) => row.id === scoreId) + 1;
  }

  /** Moves a stored score into the previous ISO week: only the database can make an older score. */
  async function moveToLastWeek(scoreId: string): Promise<void> {
    await t.db.query(
      `UPDATE scores SET achieved_at = achieved_at - interval '8 days',
              week_start = (date_trunc('week', (achieved_at - interval '8 days') AT TIME ZONE 'UTC'))::date WHERE id = $1`,
      [scoreId],
    );
  }

  it('answers 401 signed out, then 403 EMAIL_NOT_VERIFIED and ACCOUNT_NOT_LINKED, before validation and the game', async () => {
    const game = await publishGame(t, dev);
    for (const [slug, query] of [[game.slug, ''], [game.slug, '?period=year'], ['no-such-game', ''], ['Bad_Slug', '']]) {
      const res = await me(null, slug!, query);
      expect({ slug, query, status: res.status, error: res.body.error }).toEqual({ slug, query, status: 401, error: 'UNAUTHENTICATED' });
    }
    const unverified = await signUpPlayer(t, { verified: false });
    const unlinked = await signUpPlayer(t, { verified: true, linked: false });
    for (const [user, error] of [[unverified, 'EMAIL_NOT_VERIFIED'], [unlinked, 'ACCOUNT_NOT_LINKED']] as const) {
      for (const [slug, query] of [[game.slug, ''], [game.slug, '?period=year'], ['no-such-game', '']]) {
        const res = await me(user.cookie, slug!, query);
        expect({ slug, query, status: res.status, error: res.body.error }).toEqual({ slug, query, status: 403, error });
      }
    }
  });

  it('answers 400 INVALID_REQUEST for a bad period or slug, 404 NOT_FOUND for unknown, unpublished and suspended games', async () => {
    const player = await signUpVerifiedPlayer(t);
    const game = await publishGame(t, dev);
    for (const query of ['?period=year', '?period=', '?period=week&period=all', '?period=all&extra=1']) {
      const res = await me(player.cookie, game.slug, query);
      expect({ query, status: res.status, error: res.body.error }).toEqual({ query, status: 400, error: 'INVALID_REQUEST' });
    }
    for (const slug of ['Bad_Slug', 'a'.repeat(65)]) {
      const res = await me(player.cookie, slug);
      expect({ slug, status: res.status, error: res.body.error }).toEqual({ slug, status: 400, error: 'INVALID_REQUEST' });
    }
    const draft = await createGame(t, dev);
    const suspended = await publishGame(t, dev);
    await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
    for (const slug of ['no-such-game', draft.slug, suspended.slug]) {
      const res = await me(player.cookie, slug, '?period=week');
      expect({ slug, status: res.status, error: res.body.error }).toEqual({ slug, status: 404, error: 'NOT_FOUND' });
    }
  });

  it('answers best: null to a player with no saved score of the game, and is never cached', async () => {
    const game = await publishGame(t, dev);
    const player = await fundedPlayer();
    const other = await fundedPlayer();
    await score(other, game, 50, 'OTH');
    for (const period of [undefined, 'all', 'week'] as const) expect(await bestOf(player, game.slug, period)).toBeNull();
    const res = await me(player.cookie, game.slug).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ best: null });
    expect(await answerSchemaErrors(t, PATH, 'get', 200, res.body)).toEqual([]);
  });

  it('gives a best below the top ten its true rank among all scores with initials, whether or not it has initials yet', async () => {
    const game = await publishGame(t, dev);
    // Ten scores on the board, 1090 down to 1000.
    for (let i = 0; i < 10; i++) await score(await fundedPlayer(), game, 1090 - i * 10, 'TOP');
    // A higher score that never got initials is not on the board, so it is ahead of no one.
    const shy = await fundedPlayer();
    const shyScore = await score(shy, game, 5000);
    expect(await bestOf(shy, game.slug)).toEqual({ score: '5000', initials: null, achievedAt: await achievedAtOf(shyScore), rank: 1 });

    const player = await fundedPlayer();
    const low = await score(player, game, 10);
    expect(await bestOf(player, game.slug)).toEqual({ score: '10', initials: null, achievedAt: await achievedAtOf(low), rank: 11 });

    // A tie with the tenth, achieved later: eleventh. Initials put it on the board, still eleventh.
    const tie = await score(player, game, 1000);
    expect(await bestOf(player, game.slug)).toEqual({ score: '1000', initials: null, achievedAt: await achievedAtOf(tie), rank: 11 });
    const session = (await t.db.query<{ play_session_id: string }>('SELECT play_session_id FROM scores WHERE id = $1', [tie])).rows[0]!.play_session_id;
    await postInitials(t, player, session, tie, 'ELE').expect(200);
    expect(await bestOf(player, game.slug)).toEqual({ score: '1000', initials: 'ELE', achievedAt: await achievedAtOf(tie), rank: 11 });
    expect(await trueRank(game.gameId, tie)).toBe(11);
    expect((await getBoard(t, game.slug).expect(200)).body.scores).toHaveLength(10);

    // Twenty more ahead of it: its rank follows, counted over every score, not only the top ten.
    for (let i = 0; i < 20; i++) await score(await fundedPlayer(), game, 1001 + i, 'MID');
    const best = await bestOf(player, game.slug);
    expect(best).toEqual({ score: '1000', initials: 'ELE', achievedAt: await achievedAtOf(tie), rank: 31 });
    expect(await trueRank(game.gameId, tie)).toBe(31);
    expect(await answerSchemaErrors(t, PATH, 'get', 200, { best })).toEqual([]);
    expect(await answerSchemaErrors(t, PATH, 'get', 200, { best: { ...best, initials: null } })).toEqual([]);
    // This week it is the same board here: every score is this week's.
    expect(await bestOf(player, game.slug, 'week')).toEqual(best);
  });

  it('orders ties by earlier achievedAt with no shared ranks, and keeps a player\'s earlier equal score as the best', async () => {
    const game = await publishGame(t, dev);
    const first = await fundedPlayer();
    const second = await fundedPlayer();
    const firstScore = await score(first, game, 500, 'ONE');
    const secondScore = await score(second, game, 500, 'TWO');
    await score(first, game, 500);
    expect(await bestOf(first, game.slug)).toEqual({ score: '500', initials: 'ONE', achievedAt: await achievedAtOf(firstScore), rank: 1 });
    expect(await bestOf(second, game.slug)).toEqual({ score: '500', initials: 'TWO', achievedAt: await achievedAtOf(secondScore), rank: 2 });
    const board = (await getBoard(t, game.slug).expect(200)).body.scores as { rank: number; initials: string }[];
    expect(board.map((entry) => [entry.rank, entry.initials])).toEqual([[1, 'ONE'], [2, 'TWO'], [3, 'ONE']]);
  });

  it('keeps to the period: period=week has this ISO week\'s best and its rank among this week\'s scores', async () => {
    const game = await publishGame(t, dev);
    const player = await fundedPlayer();
    const rival = await fundedPlayer();
    const oldBest = await score(player, game, 900, 'PLY');
    await moveToLastWeek(oldBest);
    const rivalOld = await score(rival, game, 1000, 'RIV');
    await moveToLastWeek(rivalOld);
    const thisWeek = await score(player, game, 300);
    await score(rival, game, 400);

    expect(await bestOf(player, game.slug, 'all')).toEqual({ score: '900', initials: 'PLY', achievedAt: await achievedAtOf(oldBest), rank: 2 });
    expect(await bestOf(player, game.slug)).toEqual({ score: '900', initials: 'PLY', achievedAt: await achievedAtOf(oldBest), rank: 2 });
    // 400 this week is ahead; last week's 1000 is not this week's.
    expect(await bestOf(player, game.slug, 'week')).toEqual({ score: '300', initials: 'PLY', achievedAt: await achievedAtOf(thisWeek), rank: 2 });

    // Someone whose only score is from last week has a best of all time and none this week.
    const lastWeekOnly = await fundedPlayer();
    const only = await score(lastWeekOnly, game, 1, 'OLD');
    await moveToLastWeek(only);
    expect(await bestOf(lastWeekOnly, game.slug, 'all')).toEqual({ score: '1', initials: 'OLD', achievedAt: await achievedAtOf(only), rank: 5 });
    expect(await bestOf(lastWeekOnly, game.slug, 'week')).toBeNull();
  });

  it('leaves out a score an admin removed: the next best takes its place, and removed scores are ahead of no one', async () => {
    const game = await publishGame(t, dev);
    const player = await fundedPlayer();
    const cheat = await fundedPlayer();
    const top = await score(player, game, 800, 'PLY');
    const next = await score(player, game, 200);
    const forged = await score(cheat, game, 9000, 'CHT');
    expect(await bestOf(player, game.slug)).toMatchObject({ score: '800', rank: 2 });
    const admin = await adminCookie(t);
    await t.http().post(`/api/admin/scores/${forged}/remove`).set('Cookie', admin).send({ reason: 'Forged.' }).expect(200);
    expect(await bestOf(player, game.slug)).toMatchObject({ score: '800', rank: 1 });
    expect(await bestOf(cheat, game.slug)).toBeNull();
    await t.http().post(`/api/admin/scores/${top}/remove`).set('Cookie', admin).send({ reason: 'Checked.' }).expect(200);
    expect(await bestOf(player, game.slug)).toEqual({ score: '200', initials: 'PLY', achievedAt: await achievedAtOf(next), rank: 1 });
  });
});
