/**
 * Developers get paid (CONTRACT §22): the balance, the payout method, payout runs (idempotent,
 * eligibility by method, minimum and hold), mark-paid and fail (repeats, 409s, the reversal), a
 * void after a payout, the payouts list, audit entries, and what the database refuses by itself.
 * Read back through the API and the database.
 */
import { Pool } from 'pg';
import { checkInvariants } from '../../src/ops/invariants';
import { findChainBreaks } from '../../src/modules/wallet';
import type { TestApp } from '../support/app';
import { asAppRole } from '../support/global-setup';
import { createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';
import { signedInAdmin, SignedInAdmin } from '../support/admin';

/** A money string as exact thousandths of a dollar (§16.33: never compared as floats). */
function mills(usd: string): number {
  const [whole, fraction = ''] = usd.replace('-', '').split('.');
  const value = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  return usd.startsWith('-') ? -value : value;
}

interface Studio {
  dev: Developer;
  slug: string;
}

describe('payouts (CONTRACT §22)', () => {
  let t: TestApp;
  let admin: SignedInAdmin;

  beforeAll(async () => {
    // Nothing held, so today's earnings can be paid; a minimum of 50 cents: two insertions of 5 coins ($1.75) pass it.
    t = await createWorldApp({ env: { PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '0.5' } });
    admin = await signedInAdmin(t);
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
      expect(await findChainBreaks(t.db)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  async function studio(coinsPerCredit = 5): Promise<Studio> {
    const dev = await createDeveloper(t, { displayName: `Studio ${idempotencyKey('s')}` });
    const game = await publishGame(t, dev, { coinsPerCredit });
    return { dev, slug: game.slug };
  }

  /** `n` paid insertions by a new player; their insertion ids. */
  async function earn(s: Studio, n: number): Promise<string[]> {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 100);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await paidSession(t, player, s.slug)).insertionId);
    return ids;
  }

  const balance = async (s: Studio) => (await t.http().get('/api/portal/balance').set('Cookie', s.dev.cookie).expect(200)).body;
  const setMethod = (s: Studio, body: object) => t.http().put('/api/portal/payout-method').set('Cookie', s.dev.cookie).send(body);
  const run = (key = idempotencyKey('run')) => admin.post('/api/admin/payout-runs', { idempotencyKey: key });
  const payoutOf = (body: { payouts: { developerId: string }[] }, s: Studio) => body.payouts.find((p) => p.developerId === s.dev.developerId) as Record<string, string> | undefined;
  const ledger = async (developerId: string) =>
    (await t.db.query('SELECT kind, amount_mills::int AS amount, payout_id::text FROM developer_ledger_entries WHERE developer_id = $1 ORDER BY id', [developerId])).rows;

  describe('GET /api/portal/balance and PUT /api/portal/payout-method', () => {
    it('starts at zero with no method, and needs a developer', async () => {
      const s = await studio();
      expect(await balance(s)).toEqual({ currency: 'USD', balanceUsd: '0', heldUsd: '0', availableUsd: '0', minimumPayoutUsd: '0.5', payoutMethod: null });
      await t.http().get('/api/portal/balance').expect(401);
      const player = await signUpVerifiedPlayer(t);
      expect((await t.http().get('/api/portal/balance').set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
    });

    it('shows earnings exactly, and keeps the payout method', async () => {
      const s = await studio(1);
      await earn(s, 3);
      expect(await balance(s)).toMatchObject({ balanceUsd: '0.525', heldUsd: '0', availableUsd: '0.525' });

      expect((await setMethod(s, { kind: 'sandbox' }).expect(200)).body).toEqual({ payoutMethod: { kind: 'sandbox' } });
      expect((await balance(s)).payoutMethod).toEqual({ kind: 'sandbox' });
      expect((await setMethod(s, { kind: 'stripe', accountId: 'acct_1Nv0FGQ9RKHgCVdK' }).expect(200)).body).toEqual({ payoutMethod: { kind: 'stripe', accountId: 'acct_1Nv0FGQ9RKHgCVdK' } });
      expect((await balance(s)).payoutMethod).toEqual({ kind: 'stripe', accountId: 'acct_1Nv0FGQ9RKHgCVdK' });
      // An account id with sandbox is not kept.
      expect((await setMethod(s, { kind: 'sandbox', accountId: 'acct_1Nv0FGQ9RKHgCVdK' }).expect(200)).body).toEqual({ payoutMethod: { kind: 'sandbox' } });
      expect((await t.db.query('SELECT kind, account_id FROM payout_methods WHERE developer_id = $1', [s.dev.developerId])).rows).toEqual([{ kind: 'sandbox', account_id: null }]);
    });

    it('refuses a stripe method without a Stripe Connect account id, an unknown kind, and cross-site requests', async () => {
      const s = await studio();
      for (const body of [{ kind: 'stripe' }, { kind: 'stripe', accountId: 'ba_123' }, { kind: 'stripe', accountId: 'acct_' }, { kind: 'stripe', accountId: `acct_${'a'.repeat(60)}` }]) {
        const res = await setMethod(s, body).expect(400);
        expect(res.body.error).toBe('INVALID_REQUEST');
        expect(res.body.message).toMatch(/^Stripe account id\b.*\.$/);
      }
      expect((await setMethod(s, { kind: 'paypal' }).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await setMethod(s, { kind: 'sandbox' }).set('Sec-Fetch-Site', 'cross-site').expect(403)).body.error).toBe('FORBIDDEN');
      expect((await balance(s)).payoutMethod).toBeNull();
    });
  });

  describe('POST /api/admin/payout-runs', () => {
    it('pays a developer with a method its whole available amount, floored to a cent, and writes its ledger entry', async () => {
      const s = await studio(1);
      await earn(s, 3); // 3 × $0.175 = $0.525
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const key = idempotencyKey('run');
      const res = await run(key).expect(201);
      expect(res.body.runId).toEqual(expect.any(String));
      const payout = payoutOf(res.body, s);
      expect(payout).toEqual({
        payoutId: expect.any(String),
        developerId: s.dev.developerId,
        amountUsd: '0.52',
        status: 'pending',
        method: { kind: 'sandbox' },
        reference: null,
        createdAt: expect.any(String),
        paidAt: null,
        failureReason: null,
      });
      // The half cent stays for the next payout.
      expect(await balance(s)).toMatchObject({ balanceUsd: '0.005', availableUsd: '0.005' });
      expect((await ledger(s.dev.developerId)).filter((e) => e.kind === 'payout')).toEqual([{ kind: 'payout', amount: -520, payout_id: payout!.payoutId }]);
      expect((await t.db.query('SELECT run_id::text, balance_before_mills::int, held_mills::int, amount_mills::int FROM payouts WHERE id = $1', [payout!.payoutId])).rows).toEqual([
        { run_id: res.body.runId, balance_before_mills: 525, held_mills: 0, amount_mills: 520 },
      ]);

      // The same key: 200, the same run, nothing new.
      const again = await run(key).expect(200);
      expect(again.body).toEqual(res.body);
      expect((await t.db.query('SELECT count(*)::int AS n FROM payouts WHERE developer_id = $1', [s.dev.developerId])).rows[0].n).toBe(1);

      // One audit entry, listing the run's payouts.
      const audit = await admin.get('/api/admin/audit', { targetId: res.body.runId }).expect(200);
      expect(audit.body.entries).toHaveLength(1);
      expect(audit.body.entries[0]).toMatchObject({ action: 'payout.run', targetType: 'payout_run', targetId: res.body.runId, actorId: expect.any(String) });
      expect(audit.body.entries[0].details.payouts).toContainEqual({ payoutId: payout!.payoutId, developerId: s.dev.developerId, amountUsd: '0.52', method: 'sandbox' });
      expect(audit.body.entries[0].details.payouts).toHaveLength(res.body.payouts.length);

      // A second run: nothing available above the minimum, nothing paid.
      expect(payoutOf((await run().expect(201)).body, s)).toBeUndefined();
    });

    it('pays nobody without a method or below the minimum', async () => {
      const noMethod = await studio();
      await earn(noMethod, 2);
      const below = await studio(1);
      await earn(below, 2); // $0.35 < $0.50
      await setMethod(below, { kind: 'sandbox' }).expect(200);
      const res = await run().expect(201);
      expect(payoutOf(res.body, noMethod)).toBeUndefined();
      expect(payoutOf(res.body, below)).toBeUndefined();
      expect((await balance(noMethod)).availableUsd).toBe('1.75');
      expect((await balance(below)).availableUsd).toBe('0.35');
    });

    it('needs an admin, a valid key, and the same origin', async () => {
      const s = await studio();
      expect((await t.http().post('/api/admin/payout-runs').set('Cookie', s.dev.cookie).send({ idempotencyKey: idempotencyKey() }).expect(403)).body.error).toBe('FORBIDDEN');
      await t.http().post('/api/admin/payout-runs').send({ idempotencyKey: idempotencyKey() }).expect(401);
      expect((await admin.post('/api/admin/payout-runs', {}).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await admin.post('/api/admin/payout-runs', { idempotencyKey: 'short' }).expect(400)).body.error).toBe('INVALID_REQUEST');
      await t.http().post('/api/admin/payout-runs').set('Cookie', admin.cookie).set('Sec-Fetch-Site', 'cross-site').send({ idempotencyKey: idempotencyKey() }).expect(403);
    });

    it('answers concurrent requests with one key with one run', async () => {
      const s = await studio();
      await earn(s, 2);
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const key = idempotencyKey('run');
      const answers = await Promise.all([run(key), run(key), run(key)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
      const runIds = new Set(answers.map((a) => a.body.runId));
      expect(runIds.size).toBe(1);
      expect((await t.db.query('SELECT count(*)::int AS n FROM payouts WHERE developer_id = $1', [s.dev.developerId])).rows[0].n).toBe(1);
      const entries = (await admin.get('/api/admin/audit', { targetId: [...runIds][0]! }).expect(200)).body.entries;
      expect(entries.map((e: { action: string }) => e.action)).toEqual(['payout.run']);
    });

    it('never pays more than available with two runs and a void at once', async () => {
      const s = await studio();
      const insertions = await earn(s, 4); // $3.50
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const [a, b, v] = await Promise.all([
        run().expect(201),
        run().expect(201),
        admin.post(`/api/admin/insertions/${insertions[0]}/void`, { reason: 'Charged twice', idempotencyKey: idempotencyKey('void') }).expect(200),
      ]);
      expect(v.body.replayed).toBe(false);
      const paid = [payoutOf(a.body, s), payoutOf(b.body, s)].filter(Boolean);
      expect(paid).toHaveLength(1);
      const rows = (await t.db.query('SELECT amount_mills::int AS amount, balance_before_mills::int AS before, held_mills::int AS held FROM payouts WHERE developer_id = $1', [s.dev.developerId])).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0].amount).toBeLessThanOrEqual(rows[0].before - rows[0].held);
      // Paid $3.50 then voided $0.875 (balance -0.875), or voided first and paid $2.625 (balance 0).
      expect([3500, 2620]).toContain(rows[0].amount);
      expect(mills((await balance(s)).balanceUsd)).toBe(3500 - 875 - rows[0].amount);
    });
  });

  describe('a void after the money was paid out', () => {
    it('leaves the balance negative, and later earnings make it up before the next payout', async () => {
      const s = await studio();
      const [first] = await earn(s, 2); // $1.75
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const paid = payoutOf((await run().expect(201)).body, s)!;
      expect(paid.amountUsd).toBe('1.75');
      await admin.post(`/api/admin/insertions/${first}/void`, { reason: 'Refunded', idempotencyKey: idempotencyKey('void') }).expect(200);
      expect(await balance(s)).toMatchObject({ balanceUsd: '-0.875', heldUsd: '0', availableUsd: '0' });
      expect(payoutOf((await run().expect(201)).body, s)).toBeUndefined();

      await earn(s, 1); // -0.875 + 0.875 = 0
      expect(await balance(s)).toMatchObject({ balanceUsd: '0', availableUsd: '0' });
      expect(payoutOf((await run().expect(201)).body, s)).toBeUndefined();
      await earn(s, 1);
      expect(payoutOf((await run().expect(201)).body, s)!.amountUsd).toBe('0.87');
      expect((await balance(s)).balanceUsd).toBe('0.005');
    });
  });

  describe('POST /api/admin/payouts/{payoutId}/mark-paid and .../fail', () => {
    async function pendingPayout(): Promise<{ s: Studio; payoutId: string }> {
      const s = await studio();
      await earn(s, 2);
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      return { s, payoutId: payoutOf((await run().expect(201)).body, s)!.payoutId };
    }
    const markPaid = (id: string, body: object = { reference: 'BANK-0001' }) => admin.post(`/api/admin/payouts/${id}/mark-paid`, body);
    const fail = (id: string, body: object = { reason: 'The bank returned it' }) => admin.post(`/api/admin/payouts/${id}/fail`, body);

    it('marks a payout paid once; a repeat answers it unchanged; failing it then is a conflict', async () => {
      const { s, payoutId } = await pendingPayout();
      const res = await markPaid(payoutId).expect(200);
      expect(res.body).toMatchObject({ payoutId, developerId: s.dev.developerId, status: 'paid', reference: 'BANK-0001', paidAt: expect.any(String), failureReason: null, amountUsd: '1.75' });
      const again = await markPaid(payoutId, { reference: 'ANOTHER' }).expect(200);
      expect(again.body).toEqual(res.body);
      const conflict = await fail(payoutId).expect(409);
      expect(conflict.body).toMatchObject({ error: 'CONFLICT', message: expect.stringMatching(/^This payout was paid.*\.$/) });
      const audit = (await admin.get('/api/admin/audit', { targetId: payoutId }).expect(200)).body.entries;
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'payout.mark_paid', targetType: 'payout', targetId: payoutId, details: { reference: 'BANK-0001' } });
      // The developer sees it paid; the balance does not move.
      const list = (await t.http().get('/api/portal/payouts').set('Cookie', s.dev.cookie).expect(200)).body;
      expect(list.payouts[0]).toMatchObject({ payoutId, status: 'paid', reference: 'BANK-0001', method: { kind: 'sandbox' } });
      expect(list.payouts[0].developerId).toBeUndefined();
      expect((await balance(s)).balanceUsd).toBe('0');
    });

    it('marks a payout failed once, writing its amount back; a repeat answers it unchanged; paying it then is a conflict', async () => {
      const { s, payoutId } = await pendingPayout();
      expect((await balance(s)).balanceUsd).toBe('0');
      const res = await fail(payoutId).expect(200);
      expect(res.body).toMatchObject({ payoutId, status: 'failed', failureReason: 'The bank returned it', paidAt: null, reference: null });
      expect((await balance(s)).balanceUsd).toBe('1.75');
      expect((await fail(payoutId, { reason: 'Again' }).expect(200)).body).toEqual(res.body);
      expect((await markPaid(payoutId).expect(409)).body).toMatchObject({ error: 'CONFLICT', message: expect.stringMatching(/^This payout failed.*\.$/) });
      expect((await ledger(s.dev.developerId)).filter((e) => e.payout_id === payoutId)).toEqual([
        { kind: 'payout', amount: -1750, payout_id: payoutId },
        { kind: 'payout_reversal', amount: 1750, payout_id: payoutId },
      ]);
      const audit = (await admin.get('/api/admin/audit', { targetId: payoutId }).expect(200)).body.entries;
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'payout.fail', targetType: 'payout', reason: 'The bank returned it' });
      // The next run pays it again, as a new payout.
      const next = payoutOf((await run().expect(201)).body, s)!;
      expect(next.payoutId).not.toBe(payoutId);
      expect(next.amountUsd).toBe('1.75');
    });

    it('races mark-paid and fail on one payout: exactly one wins', async () => {
      const { s, payoutId } = await pendingPayout();
      const [paid, failed] = await Promise.all([markPaid(payoutId), fail(payoutId)]);
      expect([paid.status, failed.status].sort()).toEqual([200, 409]);
      const status = (await t.db.query('SELECT status FROM payouts WHERE id = $1', [payoutId])).rows[0].status;
      expect((await balance(s)).balanceUsd).toBe(status === 'failed' ? '1.75' : '0');
    });

    it('validates the body and the id, and needs an admin', async () => {
      const { s, payoutId } = await pendingPayout();
      expect((await markPaid(payoutId, { reference: '' }).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await markPaid(payoutId, { reference: 'x'.repeat(201) }).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await fail(payoutId, {}).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await markPaid('a'.repeat(65)).expect(400)).body.error).toBe('INVALID_REQUEST');
      expect((await markPaid('not-a-payout').expect(404)).body.error).toBe('NOT_FOUND');
      expect((await fail('3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d').expect(404)).body.error).toBe('NOT_FOUND');
      expect((await t.http().post(`/api/admin/payouts/${payoutId}/mark-paid`).set('Cookie', s.dev.cookie).send({ reference: 'r' }).expect(403)).body.error).toBe('FORBIDDEN');
      expect((await t.db.query('SELECT status FROM payouts WHERE id = $1', [payoutId])).rows[0].status).toBe('pending');
    });
  });

  describe('GET /api/portal/payouts', () => {
    it('lists the developer\'s own payouts newest first, page by page', async () => {
      const s = await studio();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        await earn(s, 2);
        if (i === 0) await setMethod(s, { kind: 'sandbox' }).expect(200);
        ids.unshift(payoutOf((await run().expect(201)).body, s)!.payoutId);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string | number> = cursor ? { limit: 2, cursor } : { limit: 2 };
        const page = (await t.http().get('/api/portal/payouts').query(query).set('Cookie', s.dev.cookie).expect(200)).body;
        seen.push(...page.payouts.map((p: { payoutId: string }) => p.payoutId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(ids);
      const other = await studio();
      expect((await t.http().get('/api/portal/payouts').set('Cookie', other.dev.cookie).expect(200)).body).toEqual({ payouts: [], nextCursor: null });
      expect((await t.http().get('/api/portal/payouts').query({ cursor: 'nonsense' }).set('Cookie', s.dev.cookie).expect(400)).body.error).toBe('INVALID_REQUEST');
    });
  });

  describe('/developer/payouts and the admin\'s "Payouts" (HTML)', () => {
    it('sends a signed-out visitor to sign in, answers the 404 page to a non-developer, and shows a developer its money and payouts', async () => {
      const out = await t.http().get('/developer/payouts').expect(302);
      expect(out.headers.location).toBe(`/auth/login?next=${encodeURIComponent('/developer/payouts')}`);
      const player = await signUpVerifiedPlayer(t);
      const notDev = await t.http().get('/developer/payouts').set('Cookie', player.cookie).expect(404);
      expect(notDev.text).toContain('<h1>Not found</h1>');

      const s = await studio(1);
      await earn(s, 3);
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const payout = payoutOf((await run().expect(201)).body, s)!;
      const page = await t.http().get('/developer/payouts').set('Cookie', s.dev.cookie).expect(200);
      expect(page.text).toMatch(/<dt>Balance<\/dt>\s*<dd><span class="money">\$0\.005<\/span>/);
      expect(page.text).toContain('<caption>Payouts</caption>');
      expect(page.text).toContain(`data-payout-id="${payout.payoutId}"`);
      expect(page.text).toContain('$0.52');
      expect(page.text).toContain('aria-labelledby="payout-method-heading"');
      // An unreadable cursor (an old or edited link) shows the first page.
      await t.http().get('/developer/payouts?cursor=nonsense').set('Cookie', s.dev.cookie).expect(200);

      const adminPage = await t.http().get('/admin').set('Cookie', admin.cookie).expect(200);
      expect(adminPage.text).toContain('id="payouts-region"');
      expect(adminPage.text).toContain(`data-payout-id="${payout.payoutId}"`);
      await t.http().get('/admin?payouts=nonsense').set('Cookie', admin.cookie).expect(200);
    });
  });

  describe('the database refuses what must never happen', () => {
    let app: Pool;
    beforeAll(() => {
      app = new Pool({ connectionString: asAppRole(t.databaseUrl), max: 2 });
    });
    afterAll(() => app.end());

    async function refused(sql: string, values: unknown[] = []): Promise<string> {
      const client = await app.connect();
      try {
        await client.query('BEGIN');
        await client.query(sql, values);
        await client.query('COMMIT');
        return 'accepted';
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        return (error as Error).message;
      } finally {
        client.release();
      }
    }

    it('refuses a payout above what is available, without its ledger entry, changed after it ended, or deleted', async () => {
      const s = await studio();
      await earn(s, 2);
      await setMethod(s, { kind: 'sandbox' }).expect(200);
      const { runId, payouts } = (await run().expect(201)).body;
      const payoutId = payoutOf({ payouts }, s)!.payoutId;
      const insert = `INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, method_kind) VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'sandbox')`;
      expect(await refused(insert, [runId, s.dev.developerId, 2000, 1750, 0])).toMatch(/payouts_within_available|payouts_run_developer_key/);
      const otherRun = (await t.db.query("INSERT INTO payout_runs (id, idempotency_key, requested_by) SELECT gen_random_uuid(), 'db-test-' || gen_random_uuid(), requested_by FROM payout_runs LIMIT 1 RETURNING id::text")).rows[0].id;
      expect(await refused(insert, [otherRun, s.dev.developerId, 1000, 1750, 800])).toMatch(/payouts_within_available/);
      expect(await refused(insert, [otherRun, s.dev.developerId, 1005, 1750, 0])).toMatch(/payouts_whole_cents/);
      expect(await refused(insert, [otherRun, s.dev.developerId, 1000, 1750, 0])).toMatch(/has no payout ledger entry/);
      expect(await refused("UPDATE payouts SET amount_mills = 10 WHERE id = $1", [payoutId])).toMatch(/only its status and its outcome may change/);
      expect(await refused("UPDATE payouts SET status = 'failed', failure_reason = 'x', failed_at = now() WHERE id = $1", [payoutId])).toMatch(/no payout_reversal/);
      await admin.post(`/api/admin/payouts/${payoutId}/mark-paid`, { reference: 'R-1' }).expect(200);
      expect(await refused("UPDATE payouts SET status = 'pending', paid_at = NULL WHERE id = $1", [payoutId])).toMatch(/never changes again/);
      expect(await refused('DELETE FROM payouts WHERE id = $1', [payoutId])).not.toBe('accepted');
      expect(await refused("UPDATE payouts SET status = 'paid', paid_at = now() WHERE id = $1", [payoutId])).toMatch(/never changes again|payouts_paid_state/);
      expect((await t.db.query('SELECT status, reference FROM payouts WHERE id = $1', [payoutId])).rows).toEqual([{ status: 'paid', reference: 'R-1' }]);
    });

    it('refuses a stripe method without an account id, and a payout method for nobody', async () => {
      const s = await studio();
      expect(await refused("INSERT INTO payout_methods (developer_id, kind) VALUES ($1, 'stripe')", [s.dev.developerId])).toMatch(/payout_methods_account/);
      expect(await refused("INSERT INTO payout_methods (developer_id, kind, account_id) VALUES ($1, 'sandbox', 'acct_1')", [s.dev.developerId])).toMatch(/payout_methods_account/);
      expect(await refused("INSERT INTO payout_methods (developer_id, kind) VALUES (gen_random_uuid(), 'sandbox')")).toMatch(/payout_methods_developer_id_fkey/);
    });
  });
});

describe('payouts with the default hold and minimum', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('holds the last 14 days\' earnings and pays from $25', async () => {
    t = await createWorldApp({ env: { LOG_LEVEL: 'error' } });
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 5 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 100);
    await paidSession(t, player, game.slug);
    await t.http().put('/api/portal/payout-method').set('Cookie', dev.cookie).send({ kind: 'sandbox' }).expect(200);
    expect((await t.http().get('/api/portal/balance').set('Cookie', dev.cookie).expect(200)).body).toEqual({
      currency: 'USD',
      balanceUsd: '0.875',
      heldUsd: '0.875',
      availableUsd: '0',
      minimumPayoutUsd: '25',
      payoutMethod: { kind: 'sandbox' },
    });
    const admin = await signedInAdmin(t);
    expect((await admin.post('/api/admin/payout-runs', { idempotencyKey: idempotencyKey('run') }).expect(201)).body.payouts).toEqual([]);
  });
});
