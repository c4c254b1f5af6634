import { randomBytes, randomUUID } from 'node:crypto';
import { IdempotencyKeyConflictError } from '../../src/modules/idempotency/idempotency.errors';
import { AdminCreditsService } from '../../src/modules/wallet/admin-credits.service';
import { WalletNotFoundError } from '../../src/modules/wallet/wallet.errors';
import { createTestServices, ServiceWorld, TestServices, WORLD_ENV } from '../support/services';

/**
 * Admin credits (CONTRACT §4) at the use case: one credit per idempotency key, the stored answer
 * replayed, a reused key with another body refused, and the audit entry written once.
 */
describe('AdminCreditsService', () => {
  let s: TestServices;
  let world: ServiceWorld;
  let credits: AdminCreditsService;

  beforeAll(async () => {
    s = await createTestServices({ env: WORLD_ENV });
    world = new ServiceWorld(s);
    credits = s.get(AdminCreditsService);
  });
  afterAll(async () => s?.close());

  const key = () => `credit-${randomBytes(8).toString('hex')}`;
  const ledgerOf = async (walletId: string) =>
    (await s.db.query('SELECT seq::int, delta::int, balance_after::int AS "balanceAfter" FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq', [walletId])).rows;
  const auditOf = async (accountId: string) =>
    (await s.db.query("SELECT action, reason FROM audit_log WHERE target_id = $1 AND action = 'wallet.credit'", [accountId])).rows;

  it('credits once per key (201): a repeat gets the stored answer (200, replayed) and writes no second entry or audit line', async () => {
    const admin = await world.admin();
    const player = await world.player();
    const input = { coins: 25, reason: 'goodwill', idempotencyKey: key() };
    const first = await credits.credit(admin, player.accountId, input);
    expect(first).toMatchObject({ statusCode: 201, replayed: false, body: { entryId: expect.any(String), balance: 25, replayed: false } });
    const again = await credits.credit(admin, player.accountId, input);
    expect(again).toMatchObject({ statusCode: 200, replayed: true, body: { ...first.body, replayed: true } });
    expect(await ledgerOf(player.walletId)).toEqual([{ seq: 1, delta: 25, balanceAfter: 25 }]);
    expect(await auditOf(player.accountId)).toEqual([{ action: 'wallet.credit', reason: 'goodwill' }]);
  });

  it('refuses the key again with another amount or for another user, crediting nothing', async () => {
    const admin = await world.admin();
    const player = await world.player();
    const other = await world.player();
    const input = { coins: 5, reason: 'once', idempotencyKey: key() };
    await credits.credit(admin, player.accountId, input);
    await expect(credits.credit(admin, player.accountId, { ...input, coins: 6 })).rejects.toBeInstanceOf(IdempotencyKeyConflictError);
    await expect(credits.credit(admin, other.accountId, input)).rejects.toBeInstanceOf(IdempotencyKeyConflictError);
    expect(await ledgerOf(player.walletId)).toEqual([{ seq: 1, delta: 5, balanceAfter: 5 }]);
    expect(await ledgerOf(other.walletId)).toEqual([]);
  });

  it('answers WalletNotFound for a user without a wallet and keeps no key, so a later fixed request is not a replay', async () => {
    const admin = await world.admin();
    const input = { coins: 5, reason: 'nobody', idempotencyKey: key() };
    await expect(credits.credit(admin, randomUUID(), input)).rejects.toBeInstanceOf(WalletNotFoundError);
    const kept = await s.db.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [input.idempotencyKey]);
    expect(kept.rows[0].n).toBe(0);
  });
});
