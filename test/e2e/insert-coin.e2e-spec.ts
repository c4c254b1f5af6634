import { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { loginSessionEndings } from '../support/login-session-endings';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

/** Spec §4.2, §2.4; CONTRACT §7, §8, §12, §16.4, §16.5, §16.17, §16.18, §16.32. */
describe('POST /api/play/sessions/{id}/insert-coin', () => {
  let t: TestApp;
  let dev: Developer;
  let game: { gameId: string; slug: string; versionId: string };

  const insert = (player: { cookie: string }, sessionId: string, key: string) =>
    t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key });

  async function fundedPlayer(coins: number): Promise<SignedUpUser & { playerId: string }> {
    const player = await signUpVerifiedPlayer(t);
    if (coins > 0) await fundPlayer(t, player, coins);
    return player;
  }

  async function ledgerOf(playerId: string) {
    const rows = await t.db.query(
      `SELECT le.seq, le.delta, le.balance_after::int AS balance_after, le.kind FROM ledger_entries le
         JOIN wallets w ON w.id = le.wallet_id WHERE w.player_id = $1 ORDER BY le.seq`,
      [playerId],
    );
    return rows.rows;
  }

  async function insertionsOf(sessionId: string) {
    const rows = await t.db.query(
      `SELECT i.id, i.coins, i.game_id, i.player_id, e.developer_id, e.coins AS earning_coins, e.gross_mills::int AS gross_mills, e.earned_mills::int AS earned_mills
         FROM insertions i LEFT JOIN developer_earnings e ON e.insertion_id = i.id WHERE i.play_session_id = $1 ORDER BY i.created_at`,
      [sessionId],
    );
    return rows.rows;
  }

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
    game = await publishGame(t, dev, { coinsPerCredit: 2 });
  });
  afterAll(async () => t.close());

  it('debits coinsPerCredit and records the insertion and the 70% earning in exact mills', async () => {
    const player = await fundedPlayer(5);
    const { sessionId } = await startSession(t, player, game.slug);
    const res = await insert(player, sessionId, idempotencyKey()).expect(200);
    expect(res.body).toEqual({ insertionId: expect.any(String), creditsGranted: 1, coinsSpent: 2, balance: 3, testMode: false, replayed: false });
    expect(await ledgerOf(player.playerId)).toEqual([
      { seq: 1, delta: 5, balance_after: 5, kind: 'credit' },
      { seq: 2, delta: -2, balance_after: 3, kind: 'debit' },
    ]);
    expect(await insertionsOf(sessionId)).toEqual([
      { id: res.body.insertionId, coins: 2, game_id: game.gameId, player_id: player.playerId, developer_id: dev.developerId, earning_coins: 2, gross_mills: 500, earned_mills: 350 },
    ]);
    const link = await t.db.query('SELECT le.delta FROM insertions i JOIN ledger_entries le ON le.id = i.ledger_entry_id WHERE i.id = $1', [res.body.insertionId]);
    expect(link.rows).toEqual([{ delta: -2 }]);
  });

  it('replays a retry with the same key: the original answer with replayed: true, charged once', async () => {
    const player = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    const key = idempotencyKey();
    const first = await insert(player, sessionId, key).expect(200);
    // inside the 500 ms window: a replay is answered before the rate limit
    const again = await insert(player, sessionId, key).expect(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    t.clock.advance(600);
    // a later insertion changes the balance; the replay still shows the balance as it was (§16.32)
    await insert(player, sessionId, idempotencyKey()).expect(200);
    const later = await insert(player, sessionId, key).expect(200);
    expect(later.body).toEqual({ ...first.body, replayed: true });
    expect((await insertionsOf(sessionId)).length).toBe(2);
    expect((await ledgerOf(player.playerId)).filter((e) => e.kind === 'debit').length).toBe(2);
  });

  it('replays after the session ended and after the wallet ran dry (never 410 or 402 for an applied key)', async () => {
    const player = await fundedPlayer(2);
    const { sessionId } = await startSession(t, player, game.slug);
    const key = idempotencyKey();
    const first = await insert(player, sessionId, key).expect(200);
    expect(first.body.balance).toBe(0);
    await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
    const replay = await insert(player, sessionId, key).expect(200);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
  });

  it('answers 409 IDEMPOTENCY_KEY_CONFLICT for the same key on another session, and writes nothing', async () => {
    const player = await fundedPlayer(10);
    const a = await startSession(t, player, game.slug);
    const b = await startSession(t, player, game.slug);
    const key = idempotencyKey();
    await insert(player, a.sessionId, key).expect(200);
    const conflict = await insert(player, b.sessionId, key).expect(409);
    expect(conflict.body).toEqual({ error: 'IDEMPOTENCY_KEY_CONFLICT', message: expect.any(String) });
    expect(await insertionsOf(b.sessionId)).toEqual([]);
    // a conflict is not an attempt: the session's 500 ms window is still free (§16.18)
    await insert(player, b.sessionId, idempotencyKey()).expect(200);
  });

  it('answers the path before a conflict (CONTRACT §16.17): a used key on an unknown session is 404, not 409', async () => {
    const player = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    const key = idempotencyKey();
    await insert(player, sessionId, key).expect(200);
    expect((await insert(player, '00000000-0000-4000-8000-000000000000', key).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
  });

  it('keys belong to their caller: another player may use the same key', async () => {
    const one = await fundedPlayer(10);
    const two = await fundedPlayer(10);
    const key = idempotencyKey('shared');
    const a = await startSession(t, one, game.slug);
    const b = await startSession(t, two, game.slug);
    const first = await insert(one, a.sessionId, key).expect(200);
    const second = await insert(two, b.sessionId, key).expect(200);
    expect(second.body.replayed).toBe(false);
    expect(second.body.insertionId).not.toBe(first.body.insertionId);
  });

  it('answers 402 INSUFFICIENT_COINS with balance and coinsPerCredit, writes nothing, and leaves the key usable', async () => {
    const player = await fundedPlayer(1);
    const { sessionId } = await startSession(t, player, game.slug);
    const key = idempotencyKey();
    const res = await insert(player, sessionId, key).expect(402);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_COINS', message: expect.any(String), balance: 1, coinsPerCredit: 2 });
    expect(await insertionsOf(sessionId)).toEqual([]);
    expect(await ledgerOf(player.playerId)).toEqual([{ seq: 1, delta: 1, balance_after: 1, kind: 'credit' }]);
    const stored = await t.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(stored.rows[0].n).toBe(0);
    await fundPlayer(t, player, 1);
    t.clock.advance(550);
    const paid = await insert(player, sessionId, key).expect(200);
    expect(paid.body).toMatchObject({ coinsSpent: 2, balance: 0, replayed: false });
  });

  it('answers 402 for a wallet that was never credited', async () => {
    const player = await fundedPlayer(0);
    const { sessionId } = await startSession(t, player, game.slug);
    const res = await insert(player, sessionId, idempotencyKey()).expect(402);
    expect(res.body).toMatchObject({ error: 'INSUFFICIENT_COINS', balance: 0, coinsPerCredit: 2 });
  });

  it('limits a session to one attempt per 500 ms: 429 RATE_LIMITED with Retry-After and retryAfterMs; a 402 counts', async () => {
    const player = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    await insert(player, sessionId, idempotencyKey()).expect(200);
    const limited = await insert(player, sessionId, idempotencyKey()).expect(429);
    expect(limited.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(limited.body.retryAfterMs).toBeGreaterThan(0);
    expect(limited.body.retryAfterMs).toBeLessThanOrEqual(500);
    expect(limited.headers['retry-after']).toBe('1');
    expect((await insertionsOf(sessionId)).length).toBe(1);
    // another session of the same player has its own limit
    const other = await startSession(t, player, game.slug);
    await insert(player, other.sessionId, idempotencyKey()).expect(200);

    const poor = await fundedPlayer(1);
    const poorSession = await startSession(t, poor, game.slug);
    await insert(poor, poorSession.sessionId, idempotencyKey()).expect(402);
    expect((await insert(poor, poorSession.sessionId, idempotencyKey()).expect(429)).body.error).toBe('RATE_LIMITED');
  });

  it('a 429 leaves the key usable once the window has passed', async () => {
    const player = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    await insert(player, sessionId, idempotencyKey()).expect(200);
    const key = idempotencyKey();
    await insert(player, sessionId, key).expect(429);
    t.clock.advance(550);
    expect((await insert(player, sessionId, key).expect(200)).body.replayed).toBe(false);
  });

  it('test-mode sessions debit nothing, store nothing, and answer a test_ id', async () => {
    const owner = await createDeveloper(t);
    await fundPlayer(t, owner, 3);
    const unpublished = await createGame(t, owner, { coinsPerCredit: 3 });
    const { sessionId, testMode } = await startSession(t, owner, unpublished.slug);
    expect(testMode).toBe(true);
    const key = idempotencyKey();
    const res = await insert(owner, sessionId, key).expect(200);
    expect(res.body).toEqual({ insertionId: expect.stringMatching(/^test_/), creditsGranted: 1, coinsSpent: 0, balance: 3, testMode: true, replayed: false });
    expect(res.body.insertionId.length).toBeLessThanOrEqual(64);
    expect(await insertionsOf(sessionId)).toEqual([]);
    expect(await ledgerOf(owner.playerId!)).toEqual([{ seq: 1, delta: 3, balance_after: 3, kind: 'credit' }]);
    const keys = await t.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(keys.rows[0].n).toBe(0);
    const earnings = await t.db.query('SELECT count(*)::int AS n FROM developer_earnings WHERE game_id = $1', [unpublished.gameId]);
    expect(earnings.rows[0].n).toBe(0);
  });

  it('answers 404 SESSION_NOT_FOUND for another player\'s session and unknown ids, 400 for an id over 64 characters', async () => {
    const player = await fundedPlayer(10);
    const other = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    expect((await insert(other, sessionId, idempotencyKey()).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    expect((await insert(player, '00000000-0000-4000-8000-000000000000', idempotencyKey()).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    expect((await insert(player, 'no-such-session', idempotencyKey()).expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    expect((await insert(player, 'x'.repeat(65), idempotencyKey()).expect(400)).body.error).toBe('INVALID_REQUEST');
    expect(await insertionsOf(sessionId)).toEqual([]);
  });

  it.each([
    [{}],
    [{ idempotencyKey: 'short' }],
    [{ idempotencyKey: 'x'.repeat(129) }],
    [{ idempotencyKey: 'has spaces in it' }],
    [{ idempotencyKey: 12345678 }],
    [{ idempotencyKey: 'valid-key-123', extra: true }],
  ])('answers 400 INVALID_REQUEST for %j (before the session lookup)', async (body) => {
    const player = await fundedPlayer(0);
    const res = await t.http().post('/api/play/sessions/00000000-0000-4000-8000-000000000000/insert-coin').set('Cookie', player.cookie).send(body).expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
  });

  it('accepts keys of 8 and 128 characters from the whole allowed alphabet', async () => {
    const player = await fundedPlayer(10);
    const a = await startSession(t, player, game.slug);
    const b = await startSession(t, player, game.slug);
    await insert(player, a.sessionId, 'aZ0_.:-9').expect(200);
    await insert(player, b.sessionId, `${idempotencyKey()}:`.padEnd(128, 'z')).expect(200);
  });

  it('answers 401 signed out, 403 EMAIL_NOT_VERIFIED, 403 ACCOUNT_NOT_LINKED, 403 FORBIDDEN cross-site', async () => {
    const player = await fundedPlayer(10);
    const { sessionId } = await startSession(t, player, game.slug);
    await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).send({ idempotencyKey: idempotencyKey() }).expect(401);
    const unverified = await signUpPlayer(t, { verified: false });
    expect((await insert(unverified, sessionId, idempotencyKey()).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
    const unlinked = await signUpPlayer(t, { verified: true, linked: false });
    expect((await insert(unlinked, sessionId, idempotencyKey()).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
    const cross = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).set('Sec-Fetch-Site', 'cross-site').send({ idempotencyKey: idempotencyKey() }).expect(403);
    expect(cross.body.error).toBe('FORBIDDEN');
    expect(await insertionsOf(sessionId)).toEqual([]);
  });

  it('trusts a login session it read before only while the session lives: 401 at once after a sign-out, a ban, or an expiry or revocation in SQL, a replay included, and nothing debited', async () => {
    for (const [label, end] of loginSessionEndings(t)) {
      const player = await fundedPlayer(10);
      const { sessionId } = await startSession(t, player, game.slug);
      // This instance now keeps the login session: the next insert-coin does not read it.
      const first = idempotencyKey();
      await insert(player, sessionId, first).expect(200);
      await end(player);
      t.clock.advance(600);
      const refused = await insert(player, sessionId, idempotencyKey());
      const replay = await insert(player, sessionId, first);
      expect({ label, fresh: [refused.status, refused.body.error], replay: [replay.status, replay.body.error] }).toEqual({
        label, fresh: [401, 'UNAUTHENTICATED'], replay: [401, 'UNAUTHENTICATED'],
      });
      expect({ label, insertions: (await insertionsOf(sessionId)).length, ledger: (await ledgerOf(player.playerId)).length }).toEqual({ label, insertions: 1, ledger: 2 });
    }
  });

  it('keeps taking coins in a session that began before its game was suspended (spec §4.2 lists no GAME_UNAVAILABLE)', async () => {
    const player = await fundedPlayer(4);
    const suspended = await publishGame(t, dev, { coinsPerCredit: 1 });
    const { sessionId } = await startSession(t, player, suspended.slug);
    await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
    await insert(player, sessionId, idempotencyKey()).expect(200);
  });
});

describe('insert-coin when Redis is unreachable', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on this port: the shared counters cannot be reached.
    t = await createWorldApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(async () => t.close());

  it('keeps serving with this instance\'s own counters: still one attempt per 500 ms, never unlimited', async () => {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 1 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const { sessionId } = await startSession(t, player, game.slug);
    const insert = () => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey() });
    expect((await insert().expect(200)).body).toMatchObject({ coinsSpent: 1, balance: 4 });
    expect((await insert().expect(429)).body.error).toBe('RATE_LIMITED');
    const rows = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(rows.rows[0].n).toBe(1);
  });
});
