import type { TestApp } from '../support/app';
import { createApiKey, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { recordStatements, StatementLog } from '../support/statements';
import { fundPlayer, idempotencyKey, paidSession, postScore, postTrustedScore, startSession } from '../support/play';

/**
 * Round trips to PostgreSQL on the money paths (issue 20, docs/performance.md): every `pg`
 * `Client.query` the app sends for one request — TypeORM's and the unit of work's alike, BEGIN and
 * COMMIT included — is counted; the test's own reads (another database role) are not. A change
 * that adds a statement to insert-coin or a score fails here, not only in the bench.
 */
// Issue 20 allows insert-coin 5 and a player score 6; both take 4 from a login session their instance keeps (as measured here).
const TARGETS = { insertCoin: 4, playerScore: 4, trustedScore: 5 };

describe('round trips to PostgreSQL per request', () => {
  let t: TestApp;
  let log: StatementLog;

  beforeAll(async () => {
    t = await createWorldApp();
    log = recordStatements(t);
  });
  afterAll(async () => {
    log.restore();
    await t.close();
  });

  /** The statements the app sent while `request` ran (it must have answered `status`). */
  async function statementsOf(request: () => Promise<{ status: number; body: unknown }>, status = 200): Promise<string[]> {
    const { result: res, statements } = await log.during(request);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.anything() });
    return statements.map((text) => text.replace(/\s+/g, ' ').slice(0, 80));
  }

  it(`insert-coin (paid) takes at most ${TARGETS.insertCoin}, player score at most ${TARGETS.playerScore}, trusted score at most ${TARGETS.trustedScore}`, async () => {
    const dev = await createDeveloper(t);
    const liveKey = (await createApiKey(t, dev, 'live')).key;
    const game = await publishGame(t, dev, { maxScore: 1_000_000 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    // Warm: each path once (the key's lastUsedAt is written on first use, at most once a minute after).
    const warm = await paidSession(t, player, game.slug);
    await postScore(t, player, warm.sessionId, 1).expect(200);
    await postTrustedScore(t, liveKey, (await paidSession(t, player, game.slug)).insertionId, 1).expect(200);

    const { sessionId } = await startSession(t, player, game.slug);
    const insertCoin = await statementsOf(() => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('rt') }));
    const playerScore = await statementsOf(() => postScore(t, player, sessionId, 42));
    const trusted = (await paidSession(t, player, game.slug)).insertionId;
    const trustedScore = await statementsOf(() => postTrustedScore(t, liveKey, trusted, 43));

    // Each did its work: the debit, both scores saved with their answers stored.
    const { rows } = await t.db.query(
      `SELECT (SELECT count(*)::int FROM scores WHERE play_session_id = $1) AS player_scores,
              (SELECT count(*)::int FROM scores WHERE insertion_id = $2 AND source = 'trusted') AS trusted_scores,
              (SELECT count(*)::int FROM idempotency_keys WHERE key LIKE 'rt-%' AND response IS NOT NULL) AS answered`,
      [sessionId, trusted],
    );
    expect(rows[0]).toEqual({ player_scores: 1, trusted_scores: 1, answered: 1 });
    // Counted for real: each at least authenticates, begins and commits.
    for (const list of [insertCoin, playerScore, trustedScore]) expect(list.length).toBeGreaterThanOrEqual(3);
    expect({ insertCoin: insertCoin.length <= TARGETS.insertCoin ? 'ok' : insertCoin }).toEqual({ insertCoin: 'ok' });
    expect({ playerScore: playerScore.length <= TARGETS.playerScore ? 'ok' : playerScore }).toEqual({ playerScore: 'ok' });
    expect({ trustedScore: trustedScore.length <= TARGETS.trustedScore ? 'ok' : trustedScore }).toEqual({ trustedScore: 'ok' });
  });

  it('a heartbeat from a login session the instance read before takes one statement: the update, which checks the login session itself', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    const heartbeat = () => t.http().post(`/api/play/sessions/${sessionId}/heartbeat`).set('Cookie', player.cookie);
    const first = await statementsOf(heartbeat);
    const next = await statementsOf(heartbeat);
    // The first reads the login session (and keeps it), the next does not.
    expect(first).toEqual([expect.stringMatching(/^SELECT s\.id AS login_session_id/), expect.stringMatching(/^UPDATE play_sessions SET last_seen_at/)]);
    expect(next).toEqual([expect.stringMatching(/^UPDATE play_sessions SET last_seen_at/)]);
  });
});
