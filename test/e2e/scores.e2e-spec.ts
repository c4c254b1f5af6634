import { weekStartOf } from '../../src/modules/scoring/leaderboard.rules';
import type { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import {
  fundPlayer,
  getBoard,
  idempotencyKey,
  insertCoin,
  paidSession,
  playAndScore,
  postInitials,
  postScore,
  startSession,
} from '../support/play';

type Player = Awaited<ReturnType<typeof signUpVerifiedPlayer>>;

const MAX = 9007199254740991;

describe('player scores, initials and the leaderboard (spec §3.2, §4.5–4.7)', () => {
  let t: TestApp;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  async function fundedPlayer(coins = 50): Promise<Player> {
    const player = await signUpVerifiedPlayer(t);
    if (coins > 0) await fundPlayer(t, player, coins);
    return player;
  }

  async function scoreRows(gameId: string) {
    const { rows } = await t.db.query(
      `SELECT id, insertion_id, play_session_id, player_id, score::text AS score, source, initials, needs_initials, achieved_at, week_start::text AS week_start
         FROM scores WHERE game_id = $1 ORDER BY achieved_at`,
      [gameId],
    );
    return rows;
  }

  describe('submitting a score', () => {
    let game: { gameId: string; slug: string };
    let player: Player;

    beforeAll(async () => {
      game = await publishGame(t, dev);
      player = await fundedPlayer();
    });

    it('saves the first score of a fresh game: qualifies at rank 1 and asks for initials', async () => {
      const { sessionId, insertionId } = await paidSession(t, player, game.slug);
      const res = await postScore(t, player, sessionId, 1200).expect(200);
      expect(res.body).toEqual({
        scoreId: expect.any(String),
        saved: true,
        testMode: false,
        qualifies: true,
        replayed: false,
        rank: 1,
        initials: null,
        needsInitials: true,
      });
      const rows = await scoreRows(game.gameId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: res.body.scoreId,
        insertion_id: insertionId,
        play_session_id: sessionId,
        player_id: player.playerId,
        score: '1200',
        source: 'player',
        initials: null,
        needs_initials: true,
      });
      expect(rows[0].week_start).toBe(weekStartOf(rows[0].achieved_at));
    });

    it('answers a retry with the same key with the original result, replayed, and saves nothing more', async () => {
      const { sessionId } = await paidSession(t, player, game.slug);
      const key = idempotencyKey();
      const first = await postScore(t, player, sessionId, 700, key).expect(200);
      const again = await postScore(t, player, sessionId, 700, key).expect(200);
      expect(again.body).toEqual({ ...first.body, replayed: true });
      const { rows } = await t.db.query('SELECT count(*)::int AS n FROM scores WHERE play_session_id = $1', [sessionId]);
      expect(rows[0].n).toBe(1);
    });

    it('refuses a second score on the same insertion with 409 INSERTION_ALREADY_SCORED', async () => {
      const { sessionId } = await paidSession(t, player, game.slug);
      await postScore(t, player, sessionId, 10).expect(200);
      const res = await postScore(t, player, sessionId, 20).expect(409);
      expect(res.body).toEqual({ error: 'INSERTION_ALREADY_SCORED', message: expect.any(String) });
    });

    it('refuses the same key for another score with 409 IDEMPOTENCY_KEY_CONFLICT', async () => {
      const { sessionId } = await paidSession(t, player, game.slug);
      const key = idempotencyKey();
      await postScore(t, player, sessionId, 10, key).expect(200);
      const res = await postScore(t, player, sessionId, 11, key).expect(409);
      expect(res.body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
      const other = await paidSession(t, player, game.slug);
      expect((await postScore(t, player, other.sessionId, 10, key).expect(409)).body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
    });

    it('refuses a score without an insertion in the session with 409 COIN_REQUIRED', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const res = await postScore(t, player, sessionId, 10).expect(409);
      expect(res.body.error).toBe('COIN_REQUIRED');
      // A refused request does not use up its key.
      const key = idempotencyKey();
      await postScore(t, player, sessionId, 10, key).expect(409);
      const kept = await t.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
      expect(kept.rows).toHaveLength(0);
    });

    it('binds the score to the latest insertion of the session', async () => {
      const { sessionId, insertionId: first } = await paidSession(t, player, game.slug);
      t.clock.advance(600); // insert-coin allows one attempt per 500 ms
      const latest = await insertCoin(t, player, sessionId);
      const res = await postScore(t, player, sessionId, 42).expect(200);
      const { rows } = await t.db.query('SELECT insertion_id FROM scores WHERE id = $1', [res.body.scoreId]);
      expect(rows[0].insertion_id).toBe(latest);
      expect(rows[0].insertion_id).not.toBe(first);
      // The latest is scored now; the earlier unscored one does not count.
      expect((await postScore(t, player, sessionId, 43).expect(409)).body.error).toBe('INSERTION_ALREADY_SCORED');
    });

    it('moves the play session lastSeenAt to now, in test mode too', async () => {
      const paid = await paidSession(t, player, game.slug);
      const preview = await startSession(t, dev, game.slug, { preview: true });
      // Ten minutes of quiet, short of the idle timeout: only the clock can be moved for this.
      await t.db.query(`UPDATE play_sessions SET last_seen_at = now() - interval '10 minutes' WHERE id = ANY($1)`, [[paid.sessionId, preview.sessionId]]);
      await postScore(t, player, paid.sessionId, 5).expect(200);
      await postScore(t, dev, preview.sessionId, 5).expect(200);
      const { rows } = await t.db.query(`SELECT bool_and(last_seen_at > now() - interval '1 minute') AS fresh FROM play_sessions WHERE id = ANY($1)`, [
        [paid.sessionId, preview.sessionId],
      ]);
      expect(rows[0].fresh).toBe(true);
    });

    it('stores and shows 9007199254740991 exactly', async () => {
      const fresh = await publishGame(t, dev);
      const maxPlayer = await fundedPlayer();
      const { sessionId } = await paidSession(t, maxPlayer, fresh.slug);
      const res = await postScore(t, maxPlayer, sessionId, MAX).expect(200);
      expect(res.body.rank).toBe(1);
      await postInitials(t, maxPlayer, sessionId, res.body.scoreId, 'MAX').expect(200);
      const { rows } = await t.db.query('SELECT score::text AS score FROM scores WHERE id = $1', [res.body.scoreId]);
      expect(rows[0].score).toBe('9007199254740991');
      const board = await getBoard(t, fresh.slug).expect(200);
      expect(board.text).toContain('"score":"9007199254740991"');
      expect(board.body.scores[0]).toMatchObject({ rank: 1, initials: 'MAX', score: '9007199254740991' });
    });

    it.each([
      ['a negative score', { score: -1 }],
      ['a fraction', { score: 1.5 }],
      ['a string', { score: '10' }],
      ['2^53', { score: 9007199254740992 }],
      ['no score', { score: undefined }],
      ['no idempotency key', { idempotencyKey: undefined }],
      ['a short idempotency key', { idempotencyKey: 'short' }],
      ['a 129-character idempotency key', { idempotencyKey: 'k'.repeat(129) }],
      ['a bad character in the key', { idempotencyKey: 'bad key!!' }],
      ['an extra property', { extra: true }],
    ])('refuses %s with 400 INVALID_REQUEST', async (_name, patch) => {
      const { sessionId } = await startSession(t, player, game.slug);
      const body = { score: 10, idempotencyKey: idempotencyKey(), ...patch };
      const res = await t.http().post(`/api/play/sessions/${sessionId}/score`).set('Cookie', player.cookie).send(body).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });

    it('refuses a session id over 64 characters with 400', async () => {
      const res = await postScore(t, player, 'a'.repeat(65), 10).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });

    it('answers 404 SESSION_NOT_FOUND for unknown, malformed and other players\' sessions', async () => {
      expect((await postScore(t, player, '00000000-0000-4000-8000-000000000000', 1).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      expect((await postScore(t, player, 'not-a-session', 1).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
      const other = await fundedPlayer();
      const { sessionId } = await paidSession(t, other, game.slug);
      expect((await postScore(t, player, sessionId, 1).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    });

    it('answers 410 SESSION_EXPIRED after the session ended, but still replays an applied key', async () => {
      const { sessionId } = await paidSession(t, player, game.slug);
      const key = idempotencyKey();
      const first = await postScore(t, player, sessionId, 77, key).expect(200);
      await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
      expect((await postScore(t, player, sessionId, 78).expect(410)).body.error).toBe('SESSION_EXPIRED');
      expect((await postScore(t, player, sessionId, 77, key).expect(200)).body).toEqual({ ...first.body, replayed: true });
    });

    it('answers 410 SESSION_EXPIRED after 30 idle minutes', async () => {
      const { sessionId } = await paidSession(t, player, game.slug);
      // Only the clock can be moved for this: the session was last seen 31 minutes ago.
      await t.db.query(`UPDATE play_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = $1`, [sessionId]);
      expect((await postScore(t, player, sessionId, 1).expect(410)).body.error).toBe('SESSION_EXPIRED');
      expect((await t.db.query('SELECT 1 FROM scores WHERE play_session_id = $1', [sessionId])).rowCount).toBe(0);
    });

    it('checks sign-in, e-mail and link first (401, 403, 403)', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const anonymous = await t.http().post(`/api/play/sessions/${sessionId}/score`).send({ score: 1, idempotencyKey: idempotencyKey() }).expect(401);
      expect(anonymous.body.error).toBe('UNAUTHENTICATED');
      const unverified = await signUpPlayer(t, { verified: false });
      expect((await postScore(t, unverified, sessionId, 1).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      expect((await postScore(t, unlinked, sessionId, 1).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
    });

    it('refuses a cross-origin request with 403 FORBIDDEN', async () => {
      const { sessionId } = await startSession(t, player, game.slug);
      const res = await t
        .http()
        .post(`/api/play/sessions/${sessionId}/score`)
        .set('Cookie', player.cookie)
        .set('Origin', 'https://evil.example')
        .send({ score: 1, idempotencyKey: idempotencyKey() })
        .expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
    });
  });

  describe('the game\'s maxScore', () => {
    it('refuses a score above it with 422 SCORE_OUT_OF_RANGE and accepts one equal to it', async () => {
      const game = await publishGame(t, dev, { maxScore: 1000 });
      const player = await fundedPlayer();
      const { sessionId } = await paidSession(t, player, game.slug);
      const res = await postScore(t, player, sessionId, 1001).expect(422);
      expect(res.body.error).toBe('SCORE_OUT_OF_RANGE');
      expect(await scoreRows(game.gameId)).toHaveLength(0);
      await postScore(t, player, sessionId, 1000).expect(200);
    });

    it('checks the insertion (409) before the range (422)', async () => {
      const game = await publishGame(t, dev, { maxScore: 10 });
      const player = await fundedPlayer();
      const { sessionId } = await startSession(t, player, game.slug);
      expect((await postScore(t, player, sessionId, 11).expect(409)).body.error).toBe('COIN_REQUIRED');
    });
  });

  describe('initials', () => {
    it('saves initials on the score and as the preference; later scores take them at once', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const first = await playAndScore(t, player, game.slug, 500);
      expect(first).toMatchObject({ qualifies: true, needsInitials: true, initials: null });
      expect((await getBoard(t, game.slug).expect(200)).body.scores).toEqual([]);

      const res = await postInitials(t, player, first.sessionId, first.scoreId as string, 'ACE').expect(200);
      expect(res.body).toEqual({ id: first.scoreId, initials: 'ACE' });
      expect((await t.db.query('SELECT initials FROM players WHERE id = $1', [player.playerId])).rows[0].initials).toBe('ACE');
      const board = await getBoard(t, game.slug).expect(200);
      expect(board.body.scores).toEqual([{ rank: 1, initials: 'ACE', score: '500', achievedAt: expect.any(String), verified: false }]);

      const next = await playAndScore(t, player, game.slug, 900);
      expect(next).toMatchObject({ saved: true, qualifies: true, rank: 1, initials: 'ACE', needsInitials: false });
      // Qualifying or not, every later score takes them.
      const other = await fundedPlayer();
      const otherFirst = await playAndScore(t, other, game.slug, 1);
      await postInitials(t, other, otherFirst.sessionId, otherFirst.scoreId as string, 'BOB').expect(200);
      const low = await playAndScore(t, other, game.slug, 0);
      expect(low).toMatchObject({ saved: true, initials: 'BOB', needsInitials: false });
    });

    it('sets only that score and the preference, not earlier scores', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const a = await playAndScore(t, player, game.slug, 10);
      const b = await playAndScore(t, player, game.slug, 20);
      await postInitials(t, player, b.sessionId, b.scoreId as string, 'XYZ').expect(200);
      const rows = await t.db.query('SELECT id, initials FROM scores WHERE id = ANY($1) ORDER BY score', [[a.scoreId, b.scoreId]]);
      expect(rows.rows).toEqual([{ id: a.scoreId, initials: null }, { id: b.scoreId, initials: 'XYZ' }]);
    });

    it('works after the session ended', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const s = await playAndScore(t, player, game.slug, 10);
      await t.http().post(`/api/play/sessions/${s.sessionId}/end`).set('Cookie', player.cookie).expect(200);
      await postInitials(t, player, s.sessionId, s.scoreId as string, 'END').expect(200);
    });

    it('answers 404 SCORE_NOT_FOUND for another player\'s score, another session, unknown and malformed ids', async () => {
      const game = await publishGame(t, dev);
      const owner = await fundedPlayer();
      const s = await playAndScore(t, owner, game.slug, 10);
      const intruder = await fundedPlayer();
      const intruderScore = await playAndScore(t, intruder, game.slug, 10);
      const cases: [string, string][] = [
        [s.sessionId, s.scoreId as string], // another player's score (and session)
        [intruderScore.sessionId, s.scoreId as string], // own session, another's score
        [intruderScore.sessionId, '00000000-0000-4000-8000-000000000000'],
        [intruderScore.sessionId, 'not-a-score'],
      ];
      for (const [sessionId, scoreId] of cases) {
        const res = await postInitials(t, intruder, sessionId, scoreId, 'BAD').expect(404);
        expect(res.body.error).toBe('SCORE_NOT_FOUND');
      }
      const another = await paidSession(t, owner, game.slug);
      expect((await postInitials(t, owner, another.sessionId, s.scoreId as string, 'BAD').expect(404)).body.error).toBe('SCORE_NOT_FOUND');
      expect((await t.db.query('SELECT initials FROM scores WHERE id = $1', [s.scoreId])).rows[0].initials).toBeNull();
    });

    it.each([
      ['lower case', { initials: 'abc' }],
      ['two letters', { initials: 'AB' }],
      ['four letters', { initials: 'ABCD' }],
      ['digits', { initials: 'A1C' }],
      ['a long scoreId', { scoreId: 'x'.repeat(65) }],
      ['no scoreId', { scoreId: undefined }],
      ['an extra property', { extra: 1 }],
    ])('refuses %s with 400', async (_name, patch) => {
      const res = await t
        .http()
        .post('/api/play/sessions/00000000-0000-4000-8000-000000000000/score/initials')
        .set('Cookie', (await fundedPlayer(0)).cookie)
        .send({ scoreId: '00000000-0000-4000-8000-000000000000', initials: 'ABC', ...patch })
        .expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
    });

    it('needs a signed-in, verified, linked player', async () => {
      const path = '/api/play/sessions/00000000-0000-4000-8000-000000000000/score/initials';
      const body = { scoreId: '00000000-0000-4000-8000-000000000000', initials: 'ABC' };
      expect((await t.http().post(path).send(body).expect(401)).body.error).toBe('UNAUTHENTICATED');
      const unverified = await signUpPlayer(t, { verified: false });
      expect((await t.http().post(path).set('Cookie', unverified.cookie).send(body).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
      const unlinked = await signUpPlayer(t, { verified: true, linked: false });
      expect((await t.http().post(path).set('Cookie', unlinked.cookie).send(body).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
    });

    it('lists scores still needing initials under GET /api/me/scores?pendingInitials=true', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const s = await playAndScore(t, player, game.slug, 321);
      const list = await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', player.cookie).expect(200);
      expect(list.body).toEqual({
        scores: [{ scoreId: s.scoreId, sessionId: s.sessionId, gameSlug: game.slug, score: '321', achievedAt: expect.any(String) }],
      });
      await postInitials(t, player, s.sessionId, s.scoreId as string, 'PEN').expect(200);
      expect((await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', player.cookie).expect(200)).body).toEqual({ scores: [] });
      expect((await t.http().get('/api/me/scores').set('Cookie', player.cookie).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await t.http().get('/api/me/scores?pendingInitials=true').expect(401)).body.error).toBe('UNAUTHENTICATED');
    });

    it('does not list a score that did not qualify', async () => {
      const game = await publishGame(t, dev);
      const leader = await fundedPlayer(30);
      const first = await playAndScore(t, leader, game.slug, 1000);
      await postInitials(t, leader, first.sessionId, first.scoreId as string, 'TOP').expect(200);
      for (let i = 0; i < 9; i++) await playAndScore(t, leader, game.slug, 1000);
      const loser = await fundedPlayer();
      const low = await playAndScore(t, loser, game.slug, 5);
      expect(low).toMatchObject({ saved: true, qualifies: false, rank: null, needsInitials: false, initials: null });
      expect((await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', loser.cookie).expect(200)).body.scores).toEqual([]);
    });
  });

  describe('the leaderboard', () => {
    it('holds ten of eleven scores, by score then earlier achievedAt; a tie with the tenth does not qualify', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer(30);
      const opener = await playAndScore(t, player, game.slug, 100);
      await postInitials(t, player, opener.sessionId, opener.scoreId as string, 'AAA').expect(200);
      const results = [];
      for (const score of [300, 200, 300, 50, 60, 70, 80, 90, 200]) results.push(await playAndScore(t, player, game.slug, score));
      expect(results.map((r) => r.rank)).toEqual([1, 2, 2, 5, 5, 5, 5, 5, 4]);
      // The board: 300, 300, 200, 200, 100, 90, 80, 70, 60, 50. Now a tie with the tenth (50):
      const tie = await playAndScore(t, player, game.slug, 50);
      expect(tie).toMatchObject({ saved: true, qualifies: false, rank: null, initials: 'AAA', needsInitials: false });

      const board = (await getBoard(t, game.slug).expect(200)).body;
      expect(board.slug).toBe(game.slug);
      expect(board.period).toBe('all');
      expect(board.scores).toHaveLength(10);
      expect(board.scores.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(board.scores.map((e: { score: string }) => e.score)).toEqual(['300', '300', '200', '200', '100', '90', '80', '70', '60', '50']);
      const ids = (await t.db.query('SELECT id, score::int AS score FROM scores WHERE game_id = $1 ORDER BY achieved_at', [game.gameId])).rows;
      const achieved = board.scores.map((e: { achievedAt: string }) => Date.parse(e.achievedAt));
      expect(achieved[0]).toBeLessThanOrEqual(achieved[1]); // the earlier 300 first
      expect(achieved[2]).toBeLessThanOrEqual(achieved[3]);
      // The later 50 (the tie) is the one left off.
      expect(ids.filter((r) => r.score === 50)).toHaveLength(2);
      const earlierFifty = (await t.db.query('SELECT achieved_at FROM scores WHERE id = $1', [results[3].scoreId])).rows[0].achieved_at;
      expect(board.scores[9].achievedAt).toBe(earlierFifty.toISOString());
      // A new top score beats them all.
      expect(await playAndScore(t, player, game.slug, 301)).toMatchObject({ qualifies: true, rank: 1 });
    });

    it('keeps the current ISO week under period=week', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const old = await playAndScore(t, player, game.slug, 5000);
      await postInitials(t, player, old.sessionId, old.scoreId as string, 'OLD').expect(200);
      // An earlier week can only be reached by moving a stored score back in time.
      await t.db.query(
        `UPDATE scores SET achieved_at = achieved_at - interval '8 days',
                week_start = (date_trunc('week', (achieved_at - interval '8 days') AT TIME ZONE 'UTC'))::date WHERE id = $1`,
        [old.scoreId],
      );
      await playAndScore(t, player, game.slug, 10);
      const all = (await getBoard(t, game.slug, 'all').expect(200)).body;
      const week = (await getBoard(t, game.slug, 'week').expect(200)).body;
      expect(all.scores.map((e: { score: string }) => e.score)).toEqual(['5000', '10']);
      expect(week).toEqual({ slug: game.slug, period: 'week', scores: [expect.objectContaining({ rank: 1, score: '10', initials: 'OLD' })] });
      expect((await getBoard(t, game.slug).expect(200)).body.period).toBe('all');
    });

    it('answers 404 NOT_FOUND for unknown, unpublished and suspended games, 400 for a bad slug or period', async () => {
      expect((await getBoard(t, 'no-such-game').expect(404)).body.error).toBe('NOT_FOUND');
      const draft = await createGame(t, dev);
      expect((await getBoard(t, draft.slug).expect(404)).body.error).toBe('NOT_FOUND');
      const published = await publishGame(t, dev);
      await t.http().post(`/api/portal/games/${published.gameId}/unpublish`).set('Cookie', dev.cookie).expect(200);
      expect((await getBoard(t, published.slug).expect(404)).body.error).toBe('NOT_FOUND');
      const suspended = await publishGame(t, dev);
      await getBoard(t, suspended.slug).expect(200);
      await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
      expect((await getBoard(t, suspended.slug).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await t.http().get('/api/games/Bad_Slug/scores').expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await t.http().get(`/api/games/${'a'.repeat(65)}/scores`).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await t.http().get(`/api/games/${published.slug}/scores?period=month`).expect(400)).body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('the leaderboard cache\'s fast path (a board served within 500 ms is answered before routing)', () => {
    const bare = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'x-request-id'].includes(name)));

    it('answers a cached board byte for byte as the controller did, security headers and request id included', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const played = await playAndScore(t, player, game.slug, 700);
      await postInitials(t, player, played.sessionId, played.scoreId as string, 'FST').expect(200);
      for (const query of ['', '?period=all', '?period=week']) {
        const first = await t.http().get(`/api/games/${game.slug}/scores${query}`).expect(200);
        const again = await t.http().get(`/api/games/${game.slug}/scores${query}`).set('X-Request-Id', 'fast-path-1').expect(200);
        expect(again.text).toBe(first.text);
        expect(bare(again.headers)).toEqual(bare(first.headers));
        expect(again.headers['x-request-id']).toBe('fast-path-1');
        expect(again.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(again.body.scores).toEqual([expect.objectContaining({ rank: 1, score: '700', initials: 'FST' })]);
      }
    });

    it('still sends other query strings and HEAD through validation, and shows a new top score at once', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      await getBoard(t, game.slug, 'week').expect(200);
      expect((await t.http().get(`/api/games/${game.slug}/scores?period=week&extra=1`).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await t.http().get(`/api/games/${game.slug}/scores?period=week&period=all`).expect(400)).body.error).toBe('INVALID_REQUEST');
      await t.http().head(`/api/games/${game.slug}/scores?period=week`).expect(200);
      const played = await playAndScore(t, player, game.slug, 42);
      await postInitials(t, player, played.sessionId, played.scoreId as string, 'NEW').expect(200);
      expect((await getBoard(t, game.slug, 'week').expect(200)).body.scores).toEqual([expect.objectContaining({ score: '42', initials: 'NEW' })]);
    });

    it('stops answering a board whose game was unpublished', async () => {
      const game = await publishGame(t, dev);
      await getBoard(t, game.slug).expect(200);
      await getBoard(t, game.slug).expect(200);
      await t.http().post(`/api/portal/games/${game.gameId}/unpublish`).set('Cookie', dev.cookie).expect(200);
      expect((await getBoard(t, game.slug).expect(404)).body.error).toBe('NOT_FOUND');
    });
  });

  describe('test-mode sessions', () => {
    it('need no coin, save nothing, and tell where the score would place', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const real = await playAndScore(t, player, game.slug, 100);
      await postInitials(t, player, real.sessionId, real.scoreId as string, 'REA').expect(200);

      const { sessionId, testMode } = await startSession(t, dev, game.slug, { preview: true });
      expect(testMode).toBe(true);
      const res = await postScore(t, dev, sessionId, 150).expect(200);
      expect(res.body).toEqual({ scoreId: null, saved: false, testMode: true, qualifies: true, replayed: false, rank: 1, initials: null, needsInitials: false });
      const low = await postScore(t, dev, sessionId, 100).expect(200);
      expect(low.body).toMatchObject({ saved: false, qualifies: true, rank: 2 });

      expect(await scoreRows(game.gameId)).toHaveLength(1);
      expect((await getBoard(t, game.slug).expect(200)).body.scores).toHaveLength(1);
      expect((await t.http().get('/api/me/scores?pendingInitials=true').set('Cookie', dev.cookie).expect(200)).body.scores).toEqual([]);
    });

    it('work on an unpublished game for its developer', async () => {
      const draft = await createGame(t, dev, { maxScore: 50 });
      const { sessionId, testMode } = await startSession(t, dev, draft.slug);
      expect(testMode).toBe(true);
      expect((await postScore(t, dev, sessionId, 50).expect(200)).body).toMatchObject({ saved: false, testMode: true, rank: 1 });
      expect((await postScore(t, dev, sessionId, 51).expect(422)).body.error).toBe('SCORE_OUT_OF_RANGE');
      expect(await scoreRows(draft.gameId)).toHaveLength(0);
    });
  });

  describe('races', () => {
    it('saves exactly one of 10 concurrent scores on one insertion with different keys; the others get 409', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const { sessionId } = await paidSession(t, player, game.slug);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => postScore(t, player, sessionId, 100 + i)));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error).toBe('INSERTION_ALREADY_SCORED');
      expect(await scoreRows(game.gameId)).toHaveLength(1);
    });

    it('applies 10 concurrent requests with one key once: the original and its replays', async () => {
      const game = await publishGame(t, dev);
      const player = await fundedPlayer();
      const { sessionId } = await paidSession(t, player, game.slug);
      const key = idempotencyKey();
      const answers = await Promise.all(Array.from({ length: 10 }, () => postScore(t, player, sessionId, 64, key)));
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(answers.filter((r) => r.body.replayed === false)).toHaveLength(1);
      expect(new Set(answers.map((r) => r.body.scoreId)).size).toBe(1);
      expect(await scoreRows(game.gameId)).toHaveLength(1);
    });
  });
});

describe('score and initials rate limits (CONTRACT §12)', () => {
  let t: TestApp;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp({
      env: { RATE_LIMIT_SCORE_PER_SESSION: '2/60', RATE_LIMIT_SCORE_PER_PLAYER: '3/60', RATE_LIMIT_INITIALS_PER_PLAYER: '1/60' },
    });
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  it('limits scores per play session with 429, Retry-After and retryAfterMs', async () => {
    const draft = await createGame(t, dev);
    const { sessionId } = await startSession(t, dev, draft.slug);
    await postScore(t, dev, sessionId, 1).expect(200);
    await postScore(t, dev, sessionId, 2).expect(200);
    const res = await postScore(t, dev, sessionId, 3).expect(429);
    expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.retryAfterMs).toBeGreaterThan(0);
  });

  it('limits scores per player across sessions, and never refuses a replay', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const game = await publishGame(t, dev);
    const first = await paidSession(t, player, game.slug);
    const key = idempotencyKey();
    await postScore(t, player, first.sessionId, 1, key).expect(200);
    for (let i = 0; i < 2; i++) {
      const s = await paidSession(t, player, game.slug);
      await postScore(t, player, s.sessionId, 1).expect(200);
    }
    const s = await paidSession(t, player, game.slug);
    const limited = await postScore(t, player, s.sessionId, 1).expect(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(await t.db.query('SELECT 1 FROM scores WHERE play_session_id = $1', [s.sessionId])).toMatchObject({ rowCount: 0 });
    // The limited key stays usable later; a replay of an applied key is answered at once.
    expect((await postScore(t, player, first.sessionId, 1, key).expect(200)).body.replayed).toBe(true);
  });

  it('limits initials per player', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const game = await publishGame(t, dev);
    const a = await playAndScore(t, player, game.slug, 1);
    await postInitials(t, player, a.sessionId, a.scoreId as string, 'ONE').expect(200);
    const res = await postInitials(t, player, a.sessionId, a.scoreId as string, 'TWO').expect(429);
    expect(res.body.error).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('SELECT initials FROM scores WHERE id = $1', [a.scoreId])).rows[0].initials).toBe('ONE');
  });
});
