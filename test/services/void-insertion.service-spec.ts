import { randomBytes, randomUUID } from 'node:crypto';
import { NotFoundError } from '../../src/errors/app-error';
import { checkInvariants } from '../../src/ops/invariants';
import { VoidInsertionService } from '../../src/modules/admin/void-insertion.service';
import { InsertCoinService } from '../../src/modules/play-sessions/insert-coin.service';
import { InsertionVoidedError } from '../../src/modules/scoring/scoring.errors';
import { SubmitScoreService } from '../../src/modules/scoring/submit-score.service';
import { eventually } from '../support/eventually';
import { createTestServices, ServiceWorld, TestServices, WORLD_ENV } from '../support/services';

/**
 * Refunds (CONTRACT §19) at the use case: voiding a paid insertion gives its coins back once, in
 * the ledger chain, takes its earning off the developer, and a second void with any key changes
 * nothing.
 */
describe('VoidInsertionService', () => {
  let s: TestServices;
  let world: ServiceWorld;
  let game: { gameId: string; slug: string; developerId: string };

  beforeAll(async () => {
    s = await createTestServices({ env: WORLD_ENV });
    world = new ServiceWorld(s);
    game = await world.publishedGame({ coinsPerCredit: 2 });
  });
  afterAll(async () => s?.close());

  const key = () => `void-${randomBytes(8).toString('hex')}`;

  it('returns the coins once as a void entry of the chain, records the void with the earning taken back, and a second void replays the first', async () => {
    const admin = await world.admin();
    const player = await world.player();
    await world.fund(player, 5);
    const sessionId = await world.playSession(player, game.slug);
    const coin = await s.get(InsertCoinService).insertCoin(player, sessionId, { idempotencyKey: key() });
    const voids = s.get(VoidInsertionService);

    const first = await voids.void(admin.actorId, coin.insertionId, { reason: 'Broken round.', idempotencyKey: key() }, null);
    expect(first).toMatchObject({ statusCode: 200, replayed: false, body: { insertionId: coin.insertionId, balance: 5, replayed: false } });
    const again = await voids.void(admin.actorId, coin.insertionId, { reason: 'Again.', idempotencyKey: key() }, null);
    expect(again.body).toMatchObject({ insertionId: coin.insertionId, entryId: first.body.entryId, balance: 5, replayed: true });

    const ledger = await s.db.query('SELECT seq::int, delta::int, balance_after::int AS "balanceAfter", kind FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq', [player.walletId]);
    expect(ledger.rows.map(({ seq, delta, balanceAfter }) => ({ seq, delta, balanceAfter }))).toEqual([
      { seq: 1, delta: 5, balanceAfter: 5 },
      { seq: 2, delta: -2, balanceAfter: 3 },
      { seq: 3, delta: 2, balanceAfter: 5 },
    ]);
    expect(ledger.rows[2].kind).toBe('void');
    // The earning taken back is the one the insertion made.
    const earned = await s.db.query('SELECT earned_mills::int AS earned FROM developer_earnings WHERE insertion_id = $1', [coin.insertionId]);
    const recorded = await s.db.query('SELECT coins, developer_id, earned_mills::int AS earned, reason FROM insertion_voids WHERE insertion_id = $1', [coin.insertionId]);
    expect(recorded.rows).toEqual([{ coins: 2, developer_id: game.developerId, earned: earned.rows[0].earned, reason: 'Broken round.' }]);
    expect(earned.rows[0].earned).toBeGreaterThan(0);
    const report = await checkInvariants(s.db);
    expect(report.violations).toEqual([]);
  });

  it('answers NOT_FOUND for an insertion that does not exist and writes nothing', async () => {
    const admin = await world.admin();
    const before = await s.db.query('SELECT count(*)::int AS n FROM ledger_entries');
    await expect(s.get(VoidInsertionService).void(admin.actorId, randomUUID(), { reason: 'Nothing.', idempotencyKey: key() }, null)).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.db.query('SELECT count(*)::int AS n FROM ledger_entries')).rows[0].n).toBe(before.rows[0].n);
  });
  it('refuses a score that waited for a void (INSERTION_VOIDED, nothing saved), player and trusted alike', async () => {
    const admin = await world.admin();
    const player = await world.player();
    await world.fund(player, 4);
    const voids = s.get(VoidInsertionService);
    const scores = s.get(SubmitScoreService);
    const waiting = () => s.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").then((r) => r.rows[0]!.n);
    for (const route of ['player', 'trusted'] as const) {
      const sessionId = await world.playSession(player, game.slug);
      const { insertionId } = await s.get(InsertCoinService).insertCoin(player, sessionId, { idempotencyKey: key() });
      // The void takes the insertion's lock, then waits here (for the wallet) until the score waits too.
      const holder = await s.db.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM wallets WHERE id = $1 FOR UPDATE', [player.walletId]);
        const voided = voids.void(admin.actorId, insertionId, { reason: 'Raced.', idempotencyKey: key() }, null);
        await eventually(waiting, (n) => n === 1);
        const scored =
          route === 'player'
            ? scores.submitPlayerScore(player, sessionId, { score: 42, idempotencyKey: key() })
            : scores.submitTrustedScore({ keyId: randomUUID(), developerId: game.developerId, kind: 'live' }, insertionId, { score: 42, idempotencyKey: key() });
        const outcome = scored.then(() => 'saved', (error: unknown) => error);
        await eventually(waiting, (n) => n === 2);
        await holder.query('COMMIT');
        expect((await voided).statusCode).toBe(200);
        expect(await outcome).toBeInstanceOf(InsertionVoidedError);
      } finally {
        holder.release();
      }
      expect((await s.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId])).rows[0].n).toBe(0);
    }
    expect((await checkInvariants(s.db)).violations).toEqual([]);
  });
});
