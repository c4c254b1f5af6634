/**
 * Buying coins with a real provider's manners (CONTRACT §19.1): the provider is called outside any
 * transaction (a repeat of the key meanwhile answers the purchase with no checkout yet; a provider
 * past its 5 seconds fails the purchase, 503), the purchase limits, and the freeze order (a freeze
 * that answered refuses every purchase and insert-coin of that wallet after it). The slow provider
 * is the sandbox with SANDBOX_PROVIDER_DELAY_MS.
 */
import { Client } from 'pg';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { TestClock } from '../support/clock';
import { adminCookie, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { eventually } from '../support/eventually';
import { fundPlayer, idempotencyKey, startSession } from '../support/play';
import { buy, deliver } from '../support/payments';

type Player = SignedUpUser & { playerId: string };

async function purchaseRow(t: TestApp, purchaseId: string): Promise<{ status: string; checkout_url: string | null } | undefined> {
  return (await t.db.query<{ status: string; checkout_url: string | null }>('SELECT status, checkout_url FROM purchases WHERE id = $1', [purchaseId])).rows[0];
}

/** The purchases of the player, as the database holds them (whatever the API answered so far). */
async function purchasesOf(t: TestApp, player: Player): Promise<{ id: string; status: string; checkout_url: string | null }[]> {
  return (await t.db.query('SELECT id, status, checkout_url FROM purchases WHERE account_id = $1 ORDER BY created_at', [player.accountId])).rows;
}

async function closeChecked(t: TestApp): Promise<void> {
  try {
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  } finally {
    await t.close();
  }
}

describe('a slow payment provider (SANDBOX_PROVIDER_DELAY_MS=1500)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { SANDBOX_PROVIDER_DELAY_MS: '1500' } });
  });
  afterAll(() => closeChecked(t));

  it('records the purchase first: a repeat of the key while the checkout opens answers 200 with checkoutUrl null, the first request 201 with it', async () => {
    const player = await signUpVerifiedPlayer(t);
    const key = idempotencyKey('slow');
    const first = buy(t, player, 'pack-10', key).then((res) => res);
    const [recorded] = await eventually(() => purchasesOf(t, player), (rows) => rows.length === 1, { withinMs: 5000, everyMs: 20 });
    expect(recorded).toMatchObject({ status: 'pending', checkout_url: null });
    // No transaction stays open while the provider works.
    const { rows: idle } = await t.db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'");
    expect(idle[0].n).toBe(0);
    const repeat = await buy(t, player, 'pack-10', key);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ purchaseId: recorded!.id, status: 'pending', checkoutUrl: null });
    const res = await first;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ purchaseId: recorded!.id, status: 'pending', checkoutUrl: `/checkout/${recorded!.id}` });
    expect((await buy(t, player, 'pack-10', key).expect(200)).body).toEqual(res.body);
  });

  it('refuses a purchase whose checkout was still opening when a freeze answered: 403 WALLET_FROZEN, the purchase failed', async () => {
    const player = await signUpVerifiedPlayer(t);
    const key = idempotencyKey('freeze-race');
    const sent = buy(t, player, 'pack-10', key).then((res) => res);
    await eventually(() => purchasesOf(t, player), (rows) => rows.length === 1, { withinMs: 5000, everyMs: 20 });
    await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', await adminCookie(t)).expect(200);
    const res = await sent;
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('WALLET_FROZEN');
    const [purchase] = await purchasesOf(t, player);
    expect(purchase).toMatchObject({ status: 'failed', checkout_url: null });
    expect((await buy(t, player, 'pack-10', key).expect(200)).body).toMatchObject({ purchaseId: purchase!.id, status: 'failed', checkoutUrl: null });
    // Nothing to pay on the sandbox's page: the checkout was never opened.
    const paid = await t.http().post(`/api/sandbox/purchases/${purchase!.id}/pay`).set('Cookie', player.cookie).send({ cardNumber: '4242 4242 4242 4242' }).expect(200);
    expect(paid.body.status).toBe('failed');
  });
});

describe('a provider past its 5 seconds (SANDBOX_PROVIDER_DELAY_MS=6000)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { SANDBOX_PROVIDER_DELAY_MS: '6000' } });
  });
  afterAll(() => closeChecked(t));

  it('answers 503 SERVICE_UNAVAILABLE and the purchase is failed; the same key then answers 200 with that failed purchase', async () => {
    const player = await signUpVerifiedPlayer(t);
    const key = idempotencyKey('timeout');
    const started = Date.now();
    const res = await buy(t, player, 'pack-40', key);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(6000);
    const [purchase] = await purchasesOf(t, player);
    expect(purchase).toMatchObject({ status: 'failed', checkout_url: null });
    const repeat = await buy(t, player, 'pack-40', key).expect(200);
    expect(repeat.body).toMatchObject({ purchaseId: purchase!.id, packId: 'pack-40', status: 'failed', checkoutUrl: null });
    const list = await t.http().get('/api/me/purchases').set('Cookie', player.cookie).expect(200);
    expect(list.body.purchases).toEqual([repeat.body]);
    // The late checkout changes nothing once it opens.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await purchaseRow(t, purchase!.id)).toEqual({ status: 'failed', checkout_url: null });
  }, 20_000);
});

describe('purchase limits (RATE_LIMIT_PURCHASES_PER_PLAYER=7/3600)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_PURCHASES_PER_PLAYER: '7/3600' } });
  });
  afterAll(() => closeChecked(t));

  function expectRateLimited(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String), retryAfterMs: expect.any(Number) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }

  it('at most 5 pending purchases at once, then the per-player limit; repeats and refusals are not counted', async () => {
    const player = await signUpVerifiedPlayer(t);
    const ids: string[] = [];
    const firstKey = idempotencyKey('first');
    ids.push((await buy(t, player, 'pack-10', firstKey).expect(201)).body.purchaseId);
    for (let i = 0; i < 4; i += 1) ids.push((await buy(t, player).expect(201)).body.purchaseId);
    // A sixth while five are pending: 429, counted nowhere.
    expectRateLimited(await buy(t, player));
    expectRateLimited(await buy(t, player, 'pack-40'));
    // A repeat of an existing key is no new purchase: it answers, and is not counted.
    expect((await buy(t, player, 'pack-10', firstKey).expect(200)).body.purchaseId).toBe(ids[0]);
    // One paid, one declined: two more may open (new purchases 6 and 7 of 7).
    await deliver(t, 'payment.succeeded', ids[0]!).expect(200);
    ids.push((await buy(t, player).expect(201)).body.purchaseId);
    await deliver(t, 'payment.failed', ids[1]!).expect(200);
    ids.push((await buy(t, player).expect(201)).body.purchaseId);
    // Four pending now, but 7 new purchases this hour: the rate limit.
    await deliver(t, 'payment.succeeded', ids[2]!).expect(200);
    expectRateLimited(await buy(t, player));
    expect((await purchasesOf(t, player)).length).toBe(7);
    // Another player is not limited by this one.
    await buy(t, await signUpVerifiedPlayer(t)).expect(201);
  });

  it('a repeat of a key answers 200 even at the limits', async () => {
    const player = await signUpVerifiedPlayer(t);
    const key = idempotencyKey('kept');
    const first = (await buy(t, player, 'pack-10', key).expect(201)).body;
    for (let i = 0; i < 4; i += 1) await buy(t, player).expect(201);
    expectRateLimited(await buy(t, player));
    expect((await buy(t, player, 'pack-10', key).expect(200)).body).toEqual(first);
  });
});

describe('freeze order for insert-coin', () => {
  let t: TestApp;
  let player: Player;
  let slug: string;

  beforeAll(async () => {
    // The rate limits' clock stands still: two counted attempts on one play session would meet the 1 per 500 ms rule.
    const still = new TestClock();
    const at = still.now();
    still.now = () => at;
    t = await createWorldApp({ clock: still, env: { DB_STATEMENT_TIMEOUT_MS: '10000' } });
    slug = (await publishGame(t, await createDeveloper(t), { coinsPerCredit: 1 })).slug;
    player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
  });
  afterAll(() => closeChecked(t));

  async function waitingOnLocks(): Promise<number> {
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()");
    return rows[0].n;
  }

  it('an insert-coin racing a freeze is refused once the freeze answered, debits nothing, and is not an attempt of the rate limit', async () => {
    const { sessionId } = await startSession(t, player, slug);
    const admin = await adminCookie(t);
    const walletRow = await t.db.query<{ id: string; balance: string }>('SELECT id, balance FROM wallets WHERE player_id = $1', [player.playerId]);
    // Hold the wallet row: the freeze waits for it, then the insert-coin's debit waits behind the freeze.
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    let freeze: Promise<{ status: number }>;
    let coin: Promise<{ status: number; body: Record<string, unknown> }>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM wallets WHERE id = $1 FOR SHARE', [walletRow.rows[0]!.id]);
      freeze = t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin).then((r) => r);
      expect(await eventually(waitingOnLocks, (n) => n >= 1, { everyMs: 20 })).toBe(1);
      coin = t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('race') }).then((r) => r);
      expect(await eventually(waitingOnLocks, (n) => n >= 2, { everyMs: 20 })).toBe(2);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    expect((await freeze).status).toBe(200);
    const refused = await coin;
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('WALLET_FROZEN');
    expect((await t.db.query('SELECT balance FROM wallets WHERE player_id = $1', [player.playerId])).rows[0].balance).toBe(walletRow.rows[0]!.balance);
    await t.http().post(`/api/admin/wallets/${player.accountId}/unfreeze`).set('Cookie', admin).expect(200);
    // The refused request was no attempt: the next one is not held to 1 per 500 ms.
    const next = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: idempotencyKey('after') });
    expect(next.status).toBe(200);
  });
});
