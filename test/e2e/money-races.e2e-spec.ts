import { Client } from 'pg';
import { checkInvariants } from '../../src/ops/invariants';
import { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';

/**
 * Races against real PostgreSQL, then the database read back (CONTRACT §7, §8, §16.5): one key
 * applied once, a wallet never below zero, the ledger chain and the earnings consistent.
 *
 * Each race proves that its requests overlapped: a separate connection holds the wallet's row lock
 * (SELECT ... FOR UPDATE in an open transaction) while the requests are sent, and lets go only
 * once every request has either answered (a 429 or a 402 that needs no lock) or is seen waiting
 * for a lock in pg_stat_activity. The requests then all run against each other at once.
 */
describe('money under concurrency', () => {
  let t: TestApp;
  let dev: Developer;
  let game: { gameId: string; slug: string };

  beforeAll(async () => {
    // Enough connections for every racing request to wait inside the database at once, and time
    // for them to queue up on the held lock before a statement or a pool wait times out.
    t = await createWorldApp({ env: { DB_POOL_SIZE: '30', DB_STATEMENT_TIMEOUT_MS: '10000', DB_ACQUIRE_TIMEOUT_MS: '10000' } });
    dev = await createDeveloper(t);
    game = await publishGame(t, dev, { coinsPerCredit: 2 });
  });
  afterAll(async () => t.close());

  /** Backends of the app's database waiting for a lock (a row, a key being claimed by another). */
  async function waitingOnLocks(): Promise<number> {
    const rows = await t.db.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
    );
    return rows.rows[0].n;
  }

  /**
   * Sends `requests` while the player's wallet row is locked elsewhere; releases it once every
   * request has answered or waits for a lock. Returns the answers and how many waited at once.
   */
  async function raceOnHeldWallet<T>(playerId: string, requests: Array<() => PromiseLike<T>>): Promise<{ answers: T[]; waited: number }> {
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM wallets WHERE player_id = $1 FOR UPDATE', [playerId]);
      let answered = 0;
      const inFlight = requests.map((send) => Promise.resolve(send()).then((answer) => ((answered += 1), answer)));
      let waited = 0;
      const deadline = Date.now() + 20_000;
      while (answered + waited < requests.length) {
        if (Date.now() > deadline) throw new Error(`only ${waited} of ${requests.length - answered} unanswered requests reached the held lock`);
        await new Promise((r) => setTimeout(r, 20));
        waited = await waitingOnLocks();
      }
      await holder.query('COMMIT');
      return { answers: await Promise.all(inFlight), waited };
    } finally {
      await holder.end();
    }
  }

  async function walletRows(playerId: string) {
    const rows = await t.db.query(
      `SELECT le.seq, le.delta, le.balance_after::int AS balance_after FROM ledger_entries le
         JOIN wallets w ON w.id = le.wallet_id WHERE w.player_id = $1 ORDER BY le.seq`,
      [playerId],
    );
    return rows.rows as { seq: number; delta: number; balance_after: number }[];
  }

  it('20 concurrent insert-coin requests with one key: one debit, one insertion, one earning; all 200 with the same insertionId', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const { sessionId } = await startSession(t, player, game.slug);
    const key = idempotencyKey('race');
    const { answers, waited } = await raceOnHeldWallet(
      player.playerId,
      Array.from({ length: 20 }, () => () => t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key })),
    );
    // All 20 were inside the database at once: one on the wallet's lock, 19 on the key it claimed.
    expect(waited).toBe(20);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((a) => a.body.insertionId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    for (const a of answers) expect(a.body).toMatchObject({ coinsSpent: 2, balance: 8, testMode: false, creditsGranted: 1 });

    const [insertionId] = [...ids];
    const insertions = await t.db.query('SELECT id FROM insertions WHERE play_session_id = $1', [sessionId]);
    expect(insertions.rows).toEqual([{ id: insertionId }]);
    const earnings = await t.db.query('SELECT coins, gross_mills::int AS gross, earned_mills::int AS earned FROM developer_earnings WHERE insertion_id = $1', [insertionId]);
    expect(earnings.rows).toEqual([{ coins: 2, gross: 500, earned: 350 }]);
    expect(await walletRows(player.playerId)).toEqual([
      { seq: 1, delta: 10, balance_after: 10 },
      { seq: 2, delta: -2, balance_after: 8 },
    ]);
    const keys = await t.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(keys.rows[0].n).toBe(1);
  });

  it('50 concurrent insertions over 10 play sessions, wallet covering 7 credits: exactly 7 succeed, never below zero', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 15); // 7 credits at 2 coins, 1 coin left over
    const sessions = await Promise.all(Array.from({ length: 10 }, () => startSession(t, player, game.slug)));
    const { answers, waited } = await raceOnHeldWallet(
      player.playerId,
      Array.from({ length: 50 }, (_, i) => () =>
        t.http().post(`/api/play/sessions/${sessions[i % 10]!.sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('burst') }),
      ),
    );
    // At least one attempt per play session got past its burst limit and waited on the wallet with the others.
    expect(waited).toBeGreaterThanOrEqual(10);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.every((s) => s === 200 || s === 402 || s === 429)).toBe(true);
    for (const a of answers.filter((x) => x.status === 402)) expect(a.body).toMatchObject({ error: 'INSUFFICIENT_COINS', coinsPerCredit: 2 });
    const balances = answers.filter((a) => a.status === 200).map((a) => a.body.balance).sort((x, y) => x - y);
    expect(balances).toEqual([1, 3, 5, 7, 9, 11, 13]);

    const ledger = await walletRows(player.playerId);
    expect(ledger.filter((e) => e.delta < 0)).toHaveLength(7);
    expect(ledger.every((e) => e.balance_after >= 0)).toBe(true);
    expect(ledger.map((e) => e.seq)).toEqual(ledger.map((_, i) => i + 1));
    const credits = ledger.filter((e) => e.delta > 0).reduce((s, e) => s + e.delta, 0);
    const debits = -ledger.filter((e) => e.delta < 0).reduce((s, e) => s + e.delta, 0);
    expect(ledger[ledger.length - 1]!.balance_after).toBe(credits - debits);
    expect(credits - debits).toBe(1);
    expect(ledger.reduce((s, e) => s + e.delta, 0)).toBe(ledger[ledger.length - 1]!.balance_after);
    const me = await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200);
    expect(me.body.balance).toBe(1);
    const insertions = await t.db.query('SELECT count(*)::int AS n FROM insertions WHERE player_id = $1', [player.playerId]);
    expect(insertions.rows[0].n).toBe(7);
  });

  it('concurrent admin credits with one key credit once', async () => {
    const player = await signUpVerifiedPlayer(t);
    const admin = await adminCookie(t);
    const body = { coins: 40, reason: 'race', idempotencyKey: idempotencyKey('credit-race') };
    const { answers, waited } = await raceOnHeldWallet(
      player.playerId,
      Array.from({ length: 10 }, () => () => t.http().post(`/api/admin/wallets/${player.accountId}/credits`).set('Cookie', admin).send(body)),
    );
    expect(waited).toBe(10);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.entryId)).size).toBe(1);
    expect(await walletRows(player.playerId)).toEqual([{ seq: 1, delta: 40, balance_after: 40 }]);
  });

  it('credits and debits racing on one wallet keep one gap-free chain', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 4);
    const sessions = await Promise.all(Array.from({ length: 8 }, () => startSession(t, player, game.slug)));
    const admin = await adminCookie(t);
    const requests = [
      ...sessions.map((s) => () => t.http().post(`/api/play/sessions/${s.sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('mix') })),
      ...Array.from({ length: 8 }, () => () =>
        t.http().post(`/api/admin/wallets/${player.accountId}/credits`).set('Cookie', admin).send({ coins: 1, reason: 'drip', idempotencyKey: idempotencyKey('drip') }),
      ),
    ];
    const { answers, waited } = await raceOnHeldWallet(player.playerId, requests);
    expect(waited).toBe(16);
    expect(answers.every((a) => [200, 201, 402].includes(a.status))).toBe(true);
    const ledger = await walletRows(player.playerId);
    expect(ledger.map((e) => e.seq)).toEqual(ledger.map((_, i) => i + 1));
    let running = 0;
    for (const entry of ledger) {
      running += entry.delta;
      expect(entry.balance_after).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const paid = answers.filter((a) => a.status === 200 && 'insertionId' in a.body).length;
    expect(ledger.filter((e) => e.delta < 0)).toHaveLength(paid);
  });

  it('leaves every money invariant intact', async () => {
    const report = await checkInvariants(t.db);
    expect(report.violations).toEqual([]);
    expect(Number(report.totals.spentCoins)).toBeGreaterThan(0);
  });
});
