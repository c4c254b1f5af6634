import { randomBytes } from 'node:crypto';
import { RateLimitedError } from '../../src/errors/app-error';
import { checkInvariants } from '../../src/ops/invariants';
import type { PlayerContext } from '../../src/http/account-auth';
import { IdempotencyKeyConflictError } from '../../src/modules/idempotency/idempotency.errors';
import { InsertCoinService } from '../../src/modules/play-sessions/insert-coin.service';
import { InsufficientCoinsError } from '../../src/modules/wallet/wallet.errors';
import { createTestServices, ServiceWorld, TestServices, WORLD_ENV } from '../support/services';

/**
 * The money rules of insert-coin (spec §4.2, CONTRACT §7, §8), at the use case: no HTTP, the real
 * database read back. The answers' HTTP shapes stay in test/e2e/insert-coin.e2e-spec.ts.
 */
describe('InsertCoinService', () => {
  let s: TestServices;
  let world: ServiceWorld;
  let insertCoin: InsertCoinService;
  let game: { gameId: string; slug: string; developerId: string };

  beforeAll(async () => {
    s = await createTestServices({ env: WORLD_ENV });
    world = new ServiceWorld(s);
    insertCoin = s.get(InsertCoinService);
    game = await world.publishedGame({ coinsPerCredit: 3 });
  });
  afterAll(async () => s?.close());

  const key = () => `k-${randomBytes(8).toString('hex')}`;

  async function ledgerOf(player: PlayerContext) {
    const rows = await s.db.query('SELECT seq::int, delta::int, balance_after::int AS "balanceAfter" FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq', [player.walletId]);
    return rows.rows as { seq: number; delta: number; balanceAfter: number }[];
  }

  it('debits the game\'s price once and records the insertion, its ledger entry and the developer\'s earning', async () => {
    const player = await world.player();
    await world.fund(player, 10);
    const sessionId = await world.playSession(player, game.slug);
    const answer = await insertCoin.insertCoin(player, sessionId, { idempotencyKey: key() });
    expect(answer).toEqual({ insertionId: expect.any(String), creditsGranted: 1, coinsSpent: 3, balance: 7, testMode: false, replayed: false });
    expect(await ledgerOf(player)).toEqual([
      { seq: 1, delta: 10, balanceAfter: 10 },
      { seq: 2, delta: -3, balanceAfter: 7 },
    ]);
    const insertion = await s.db.query('SELECT play_session_id, player_id, game_id FROM insertions WHERE id = $1', [answer.insertionId]);
    expect(insertion.rows).toEqual([{ play_session_id: sessionId, player_id: player.playerId, game_id: game.gameId }]);
    const earning = await s.db.query('SELECT developer_id, coins FROM developer_earnings WHERE insertion_id = $1', [answer.insertionId]);
    expect(earning.rows).toEqual([{ developer_id: game.developerId, coins: 3 }]);
  });

  it('refuses a wallet that cannot cover the price and writes nothing', async () => {
    const player = await world.player();
    await world.fund(player, 2);
    const sessionId = await world.playSession(player, game.slug);
    const error = await insertCoin.insertCoin(player, sessionId, { idempotencyKey: key() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCoinsError);
    expect((error as InsufficientCoinsError).details).toEqual({ balance: 2, coinsPerCredit: 3 });
    expect(await ledgerOf(player)).toEqual([{ seq: 1, delta: 2, balanceAfter: 2 }]);
    const insertions = await s.db.query('SELECT count(*)::int AS n FROM insertions WHERE player_id = $1', [player.playerId]);
    expect(insertions.rows[0].n).toBe(0);
  });

  it('replays a key: the same answer, marked replayed, and no second debit; the key on another play session conflicts', async () => {
    const player = await world.player();
    await world.fund(player, 10);
    const sessionId = await world.playSession(player, game.slug);
    const otherSession = await world.playSession(player, game.slug);
    const k = key();
    const first = await insertCoin.insertCoin(player, sessionId, { idempotencyKey: k });
    s.clock.advance(600);
    const again = await insertCoin.insertCoin(player, sessionId, { idempotencyKey: k });
    expect(again).toEqual({ ...first, replayed: true });
    await expect(insertCoin.insertCoin(player, otherSession, { idempotencyKey: k })).rejects.toBeInstanceOf(IdempotencyKeyConflictError);
    expect((await ledgerOf(player)).filter((e) => e.delta < 0)).toEqual([{ seq: 2, delta: -3, balanceAfter: 7 }]);
  });

  it('allows one attempt per play session every 500 ms, on the limits\' clock, and a refused attempt debits nothing', async () => {
    const player = await world.player();
    await world.fund(player, 10);
    const sessionId = await world.playSession(player, game.slug);
    await insertCoin.insertCoin(player, sessionId, { idempotencyKey: key() });
    const refused = await insertCoin.insertCoin(player, sessionId, { idempotencyKey: key() }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).details.retryAfterMs).toBeGreaterThan(0);
    expect((refused as RateLimitedError).details.retryAfterMs).toBeLessThanOrEqual(500);
    s.clock.advance(500);
    expect(await insertCoin.insertCoin(player, sessionId, { idempotencyKey: key() })).toMatchObject({ balance: 4, replayed: false });
    expect((await ledgerOf(player)).map((e) => e.balanceAfter)).toEqual([10, 7, 4]);
  });

  it('keeps one gap-free ledger chain whose last balance is the sum of its deltas, and every money invariant', async () => {
    const player = await world.player();
    await world.fund(player, 7);
    const sessions = await Promise.all(Array.from({ length: 3 }, () => world.playSession(player, game.slug)));
    const outcomes = await Promise.all(sessions.map((id) => insertCoin.insertCoin(player, id, { idempotencyKey: key() }).then(() => 'paid', (e: unknown) => e)));
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(2);
    expect(outcomes.filter((o) => o instanceof InsufficientCoinsError)).toHaveLength(1);
    await world.fund(player, 5);
    const ledger = await ledgerOf(player);
    expect(ledger.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    let running = 0;
    for (const entry of ledger) {
      running += entry.delta;
      expect(entry.balanceAfter).toBe(running);
    }
    expect(running).toBe(6);
    const report = await checkInvariants(s.db);
    expect(report.violations).toEqual([]);
  });
});
