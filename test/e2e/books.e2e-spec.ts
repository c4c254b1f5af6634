import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { appendToDeveloperLedger } from '../../src/modules/wallet/ledger-append';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { Check, failedChecks, reconciliationChecks, rowsAbout, runCheckInvariants } from '../support/books';
import { behindTriggers } from '../support/database';
import { ADMIN_EMAIL, adminCookie, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { deliver, eventId, paidPurchase, pendingPurchase } from '../support/payments';
import { fundPlayer, idempotencyKey, paidSession } from '../support/play';

/**
 * Issue 30 items 3 and 6 (CONTRACT §22): the developer's monthly statement (JSON and CSV), the
 * admin's reconciliation with its eight checks, and payouts_within_earnings finding each kind of
 * error it names. The tampering of the ledgers themselves is in developer-ledger.e2e-spec.ts.
 */
const CHECK_NAMES = ['wallet_ledgers', 'developer_ledgers', 'hash_chains', 'coins_conserved', 'earnings_exact', 'payouts_within_earnings', 'purchase_events', 'voided_scores'];

const today = () => new Date().toISOString().slice(0, 10);
const thisMonth = () => today().slice(0, 7);
/** The month `n` months from this one (UTC), `YYYY-MM`. */
function monthFromNow(n: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + n, 1)).toISOString().slice(0, 7);
}
const zeros = { insertions: 0, coins: 0, grossUsd: '0', earnedUsd: '0', voidedUsd: '0', netUsd: '0' };

/**
 * A CSV read as a spreadsheet reads it (RFC 4180): fields split on commas, a quoted field may hold
 * commas, doubled quotes and line breaks, records end in CRLF.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record does not end in CRLF');
  return records;
}

/** Exact money: a §16.33 string as mills. */
const mills = (usd: string) => {
  const [whole, fraction = ''] = usd.replace('-', '').split('.');
  return (usd.startsWith('-') ? -1 : 1) * (Number(whole) * 1000 + Number(fraction.padEnd(3, '0')));
};

describe('the books: statements and the reconciliation', () => {
  let t: TestApp;
  let admin: string;
  let dev: Developer;
  let games: { first: string; second: string; firstSlug: string; secondSlug: string };
  let voidedInsertion: string;
  let mismatchedEvent: string;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
    dev = await createDeveloper(t);
    const first = await publishGame(t, dev, { coinsPerCredit: 2 });
    const second = await createGame(t, dev);
    games = { first: first.gameId, second: second.gameId, firstSlug: first.slug, secondSlug: second.slug };

    // 10 coins bought ($2.50), 6 credited, 2 insertions of 2 coins, one voided, a $1 refund (4 coins back).
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidPurchase(t, player, 'pack-10');
    await fundPlayer(t, player, 6);
    const a = await paidSession(t, player, first.slug);
    await paidSession(t, player, first.slug);
    voidedInsertion = a.insertionId;
    await t.http().post(`/api/admin/insertions/${a.insertionId}/void`).set('Cookie', admin).send({ reason: 'Charged twice', idempotencyKey: idempotencyKey('void') }).expect(200);
    await deliver(t, 'payment.refunded', purchaseId, eventId(), { amountCents: 100 }).expect(200);
    // An event whose amount does not match: recorded, moves nothing, listed by purchase_events.
    const other = await signUpVerifiedPlayer(t);
    const pending = await pendingPurchase(t, other, 'pack-10');
    mismatchedEvent = eventId();
    await deliver(t, 'payment.succeeded', pending, mismatchedEvent, { amountCents: 1 }).expect(200);
  });
  afterAll(async () => t.close());

  describe('GET /api/portal/statements/{month}', () => {
    it("this month: every game of the developer, earnings of the month's insertions, the voids made in it, totals; JSON money strings", async () => {
      const res = await t.http().get(`/api/portal/statements/${thisMonth()}`).set('Cookie', dev.cookie).expect(200);
      expect(res.body).toEqual({
        month: thisMonth(),
        currency: 'USD',
        games: [
          { gameId: games.first, slug: games.firstSlug, insertions: 2, coins: 4, grossUsd: '1', earnedUsd: '0.7', voidedUsd: '0.35', netUsd: '0.35' },
          { gameId: games.second, slug: games.secondSlug, ...zeros },
        ],
        total: { insertions: 2, coins: 4, grossUsd: '1', earnedUsd: '0.7', voidedUsd: '0.35', netUsd: '0.35' },
        payouts: [],
      });
    });

    it('a month before the developer existed: zeros, every game listed', async () => {
      const res = await t.http().get('/api/portal/statements/2001-02').set('Cookie', dev.cookie).expect(200);
      expect(res.body).toEqual({
        month: '2001-02',
        currency: 'USD',
        games: [
          { gameId: games.first, slug: games.firstSlug, ...zeros },
          { gameId: games.second, slug: games.secondSlug, ...zeros },
        ],
        total: zeros,
        payouts: [],
      });
    });

    it('refuses a month after this one, a month that is not YYYY-MM and an unknown format (400); needs a developer', async () => {
      const next = await t.http().get(`/api/portal/statements/${monthFromNow(1)}`).set('Cookie', dev.cookie).expect(400);
      expect(next.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringMatching(/^Month: .*\.$/) });
      for (const month of ['2026-13', '2026-1', 'november', '0999-01']) {
        const res = await t.http().get(`/api/portal/statements/${month}`).set('Cookie', dev.cookie).expect(400);
        expect(res.body.error).toBe('INVALID_REQUEST');
      }
      expect((await t.http().get(`/api/portal/statements/${thisMonth()}?format=xml`).set('Cookie', dev.cookie).expect(400)).body.error).toBe('INVALID_REQUEST');
      await t.http().get(`/api/portal/statements/${thisMonth()}`).expect(401);
      const player = await signUpVerifiedPlayer(t);
      await t.http().get(`/api/portal/statements/${thisMonth()}`).set('Cookie', player.cookie).expect(403);
      // Another developer sees only their own games.
      const stranger = await createDeveloper(t);
      expect((await t.http().get(`/api/portal/statements/${thisMonth()}`).set('Cookie', stranger.cookie).expect(200)).body).toMatchObject({ games: [], total: zeros });
    });

    it('?format=csv: RFC 4180 text/csv attachment, the header, a row per game, the total row; a spreadsheet reading it gets the totals', async () => {
      const res = await t.http().get(`/api/portal/statements/${thisMonth()}?format=csv`).set('Cookie', dev.cookie).buffer(true).parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => done(null, text));
      }).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${thisMonth()}.csv"`);
      const text = res.body as string;
      expect(text).toBe(
        'game_id,slug,insertions,coins,gross_usd,earned_usd,voided_usd,net_usd\r\n' +
          `${games.first},${games.firstSlug},2,4,1,0.7,0.35,0.35\r\n` +
          `${games.second},${games.secondSlug},0,0,0,0,0,0\r\n` +
          'total,,2,4,1,0.7,0.35,0.35\r\n',
      );
      // As a spreadsheet: the header, then the game rows, whose sums are the total row, and the JSON's total.
      const [header, ...rows] = parseCsv(text);
      expect(header).toEqual(['game_id', 'slug', 'insertions', 'coins', 'gross_usd', 'earned_usd', 'voided_usd', 'net_usd']);
      const total = rows.pop()!;
      expect(total.slice(0, 2)).toEqual(['total', '']);
      for (let column = 2; column < 8; column++) {
        const sum = rows.reduce((s, row) => s + (column < 4 ? Number(row[column]) : mills(row[column]!)), 0);
        expect(sum).toBe(column < 4 ? Number(total[column]) : mills(total[column]!));
      }
      for (const row of rows) expect(mills(row[7]!)).toBe(mills(row[5]!) - mills(row[6]!));
      const json = (await t.http().get(`/api/portal/statements/${thisMonth()}`).set('Cookie', dev.cookie).expect(200)).body;
      expect(total.slice(2)).toEqual([String(json.total.insertions), String(json.total.coins), json.total.grossUsd, json.total.earnedUsd, json.total.voidedUsd, json.total.netUsd]);
    });
  });

  describe('GET /api/admin/reconciliation', () => {
    it("this month's flows (the default period), the balances now, and the eight checks, all ok, on a healthy service", async () => {
      const res = await t.http().get('/api/admin/reconciliation').set('Cookie', admin).expect(200);
      expect(res.body).toEqual({
        from: `${thisMonth()}-01`,
        to: today(),
        coins: { purchased: 10, credited: 6, spent: 4, voidedBack: 2, refundedBack: 4, disputeWonBack: 0, forfeited: 0 },
        usd: {
          purchasesPaid: '2.5',
          refunded: '1',
          disputed: '0',
          unrecovered: '0',
          grossSpent: '1',
          developerEarned: '0.7',
          developerVoided: '0.35',
          paidOut: '0',
          platformShare: '0.15',
        },
        now: { walletBalances: 10, developerBalancesUsd: '0.35' },
        checks: CHECK_NAMES.map((name) => ({ name, ok: true, details: expect.objectContaining({ problems: [] }) })),
      });
      const checks = res.body.checks as Check[];
      // The identity's terms, and the mismatched event listed though it moved nothing.
      expect(checks.find((c) => c.name === 'coins_conserved')!.details.totals).toMatchObject({ purchased: '10', credited: '6', spent: '4', voidedBack: '2', refundedBack: '4', walletBalances: '10' });
      expect(checks.find((c) => c.name === 'purchase_events')!.details.mismatchedEvents).toEqual([
        expect.objectContaining({ provider: 'sandbox', eventId: mismatchedEvent, kind: 'payment_succeeded', problem: 'amount_mismatch', amountCents: '1' }),
      ]);
    });

    it('a period before anything happened: no flows; the balances now are the same', async () => {
      const res = await t.http().get('/api/admin/reconciliation?from=2020-01-01&to=2020-01-31').set('Cookie', admin).expect(200);
      expect(res.body).toMatchObject({
        from: '2020-01-01',
        to: '2020-01-31',
        coins: { purchased: 0, credited: 0, spent: 0, voidedBack: 0, refundedBack: 0, disputeWonBack: 0, forfeited: 0 },
        usd: { purchasesPaid: '0', grossSpent: '0', developerEarned: '0', platformShare: '0', paidOut: '0' },
        now: { walletBalances: 10, developerBalancesUsd: '0.35' },
      });
      expect(res.body.checks.map((c: Check) => c.name)).toEqual(CHECK_NAMES);
    });

    it('refuses a to after today, a to before from, and days that are not days (400); admins only', async () => {
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      for (const query of [`to=${tomorrow}`, 'from=2026-01-10&to=2026-01-09', 'from=2026-02-30', 'to=yesterday', 'from=2026-1-1']) {
        const res = await t.http().get(`/api/admin/reconciliation?${query}`).set('Cookie', admin).expect(400);
        expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringMatching(/^(From|To): .*\.$/) });
      }
      await t.http().get('/api/admin/reconciliation').expect(401);
      await t.http().get('/api/admin/reconciliation').set('Cookie', dev.cookie).expect(403);
    });

    it('a voided score put back on the boards: voided_scores fails in the answer and in check:invariants, the rest hold', async () => {
      const fresh = await createWorldApp();
      try {
        const d = await createDeveloper(fresh);
        const game = await publishGame(fresh, d);
        const player = await signUpVerifiedPlayer(fresh);
        await fundPlayer(fresh, player, 1);
        const { sessionId, insertionId } = await paidSession(fresh, player, game.slug);
        const score = await fresh.http().post(`/api/play/sessions/${sessionId}/score`).set('Cookie', player.cookie).send({ score: 5, idempotencyKey: idempotencyKey('s') }).expect(200);
        await fresh.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', await adminCookie(fresh)).send({ reason: 'Test', idempotencyKey: idempotencyKey('void') }).expect(200);
        await fresh.db.query('UPDATE scores SET removed_at = NULL WHERE id = $1', [score.body.scoreId]);
        const api = await reconciliationChecks(fresh);
        expect(failedChecks(api)).toEqual(['voided_scores']);
        expect(rowsAbout(api, 'voided_scores', score.body.scoreId)).toEqual([{ score_id: score.body.scoreId, insertion_id: insertionId, voided_at: expect.any(String) }]);
        const cli = await runCheckInvariants(fresh.databaseUrl);
        expect({ code: cli.code, failed: cli.failedNames }).toEqual({ code: 1, failed: ['voided_scores'] });
      } finally {
        await fresh.close();
      }
    });
  });

  it('the voided insertion the statement counts is the one the reconciliation counts', async () => {
    const { rows } = await t.db.query('SELECT earned_mills::int AS earned FROM insertion_voids WHERE insertion_id = $1', [voidedInsertion]);
    expect(rows).toEqual([{ earned: 350 }]);
  });
});

describe('a closed month never changes', () => {
  let t: TestApp;
  afterAll(async () => t.close());

  it("earnings count in their insertion's month, voids in the void's: a void next month changes only next month's statement", async () => {
    t = await createWorldApp();
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 4);
    const { insertionId } = await paidSession(t, player, game.slug);
    await paidSession(t, player, game.slug);
    // The first insertion was made last month: its earning entry (developer_earnings is a view of them) moved back a month, as the owner.
    const last = monthFromNow(-1);
    expect(await behindTriggers(t.db, `UPDATE developer_ledger_entries SET created_at = created_at - interval '1 month' WHERE kind = 'earning' AND insertion_id = $1`, [insertionId])).toBe(1);
    const before = (await t.http().get(`/api/portal/statements/${last}`).set('Cookie', dev.cookie).expect(200)).body;
    expect(before.total).toEqual({ insertions: 1, coins: 2, grossUsd: '0.5', earnedUsd: '0.35', voidedUsd: '0', netUsd: '0.35' });
    const csvBefore = (await t.http().get(`/api/portal/statements/${last}?format=csv`).set('Cookie', dev.cookie).expect(200)).text;

    // This month, the void of last month's insertion.
    await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', await adminCookie(t)).send({ reason: 'Refunded', idempotencyKey: idempotencyKey('void') }).expect(200);
    expect((await t.http().get(`/api/portal/statements/${last}`).set('Cookie', dev.cookie).expect(200)).body).toEqual(before);
    expect((await t.http().get(`/api/portal/statements/${last}?format=csv`).set('Cookie', dev.cookie).expect(200)).text).toBe(csvBefore);
    const now = (await t.http().get(`/api/portal/statements/${thisMonth()}`).set('Cookie', dev.cookie).expect(200)).body;
    expect(now.total).toEqual({ insertions: 1, coins: 2, grossUsd: '0.5', earnedUsd: '0.35', voidedUsd: '0.35', netUsd: '0' });
    // Across the two months the developer keeps the one unvoided insertion's earning.
    expect(mills(before.total.netUsd) + mills(now.total.netUsd)).toBe(350);
  });
});

describe('payouts_within_earnings finds each kind of error it names', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let dev: Developer;
  let requestedBy: string;

  beforeAll(async () => {
    t = await createWorldApp();
    uow = t.app.nest.get(UnitOfWork);
    dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 8);
    for (let i = 0; i < 4; i++) await paidSession(t, player, game.slug); // 4 × 350 mills = 1,400
    requestedBy = (await t.db.query('SELECT id FROM accounts WHERE email = $1', [ADMIN_EMAIL])).rows[0].id;
  });
  afterAll(async () => t.close());

  /**
   * A payout made as the payouts work makes it (its run, the entry through the one append under every
   * shard lock, the row with the balance it was made from), in one transaction.
   */
  async function payout(amount: number): Promise<string> {
    const runId = (await t.db.query('INSERT INTO payout_runs (id, idempotency_key, requested_by) VALUES ($1, $2, $3) RETURNING id', [randomUUID(), idempotencyKey('run'), requestedBy])).rows[0].id;
    const id = randomUUID();
    await uow.run(async () => {
      const { balanceMills } = await appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout', amountMills: -amount, payoutId: id });
      await uow.query(
        `INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, status, method_kind) VALUES ($1, $2, $3, $4, $5, 0, 'pending', 'sandbox')`,
        [id, runId, dev.developerId, amount, balanceMills + amount],
      );
    });
    return id;
  }
  /** A payout failed as the payouts work fails it: its status and its reversal in one transaction. */
  async function fail(id: string, amount: number): Promise<void> {
    await uow.run(async () => {
      await uow.query(`UPDATE payouts SET status = 'failed', failed_at = now(), failure_reason = 'Bank refused' WHERE id = $1`, [id]);
      await appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout_reversal', amountMills: amount, payoutId: id });
    });
  }
  /** An edit behind the service's back (the owner, triggers off), as a tamperer would make it. */
  const tamper = (sql: string, values: unknown[] = []) => behindTriggers(t.db, sql, values);

  /** The payouts_within_earnings problems the reconciliation reports (every other check holds). */
  async function payoutProblems(): Promise<{ rule: string; payoutIds: unknown[] }[]> {
    const checks = await reconciliationChecks(t);
    expect(failedChecks(checks).filter((name) => name !== 'payouts_within_earnings')).toEqual([]);
    const check = checks.find((c) => c.name === 'payouts_within_earnings')!;
    expect(check.ok).toBe(check.details.problems.length === 0);
    return check.details.problems.map((p) => ({ rule: p.rule, payoutIds: p.rows.map((row) => row.payout_id) }));
  }
  const ENTRIES_RULE = expect.stringMatching(/^each payout has exactly one ledger entry of kind payout/);

  it('holds for payouts made within the balance less held, with their entries, and a failed one with its reversal; a failed one without it is found', async () => {
    const first = await payout(1000);
    expect(await payoutProblems()).toEqual([]);
    await fail(first, 1000);
    expect(await payoutProblems()).toEqual([]);
    expect((await checkInvariants(t.db)).ok).toBe(true);

    const second = await payout(100);
    await tamper(`UPDATE payouts SET status = 'failed', failed_at = now(), failure_reason = 'Forged' WHERE id = $1`, [second]);
    expect(await payoutProblems()).toEqual([{ rule: ENTRIES_RULE, payoutIds: [second] }]);
    await tamper(`UPDATE payouts SET status = 'pending', failed_at = NULL, failure_reason = NULL WHERE id = $1`, [second]);
    expect(await payoutProblems()).toEqual([]);
  });

  it('a payout without its ledger entry, a payout whose amount is not its entry\'s, and a reversal of a payout that did not fail', async () => {
    const runId = (await t.db.query('INSERT INTO payout_runs (id, idempotency_key, requested_by) VALUES ($1, $2, $3) RETURNING id', [randomUUID(), idempotencyKey('run'), requestedBy])).rows[0].id;
    const missing = randomUUID();
    await tamper(
      `INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, status, method_kind) VALUES ($1, $2, $3, 100, 1300, 0, 'pending', 'sandbox')`,
      [missing, runId, dev.developerId],
    );
    expect(await payoutProblems()).toEqual([{ rule: ENTRIES_RULE, payoutIds: [missing] }]);
    await tamper('DELETE FROM payouts WHERE id = $1', [missing]);
    expect(await payoutProblems()).toEqual([]);

    const changed = await payout(100);
    await tamper('UPDATE payouts SET amount_mills = 110 WHERE id = $1', [changed]);
    expect(await payoutProblems()).toEqual([{ rule: ENTRIES_RULE, payoutIds: [changed] }]);
    await tamper('UPDATE payouts SET amount_mills = 100 WHERE id = $1', [changed]);

    const reversed = await payout(10);
    await fail(reversed, 10);
    await tamper(`UPDATE payouts SET status = 'paid', paid_at = now(), reference = 'forged', failed_at = NULL, failure_reason = NULL WHERE id = $1`, [reversed]);
    expect(await payoutProblems()).toEqual([{ rule: ENTRIES_RULE, payoutIds: [reversed] }]);
    await tamper(`UPDATE payouts SET status = 'failed', paid_at = NULL, reference = NULL, failed_at = now(), failure_reason = 'Bank refused' WHERE id = $1`, [reversed]);
    expect(await payoutProblems()).toEqual([]);
  });

  it('a payout entry whose payout is gone', async () => {
    const ghost = await payout(10);
    const row = (await t.db.query('SELECT * FROM payouts WHERE id = $1', [ghost])).rows[0];
    await tamper('DELETE FROM payouts WHERE id = $1', [ghost]);
    expect(await payoutProblems()).toEqual([{ rule: expect.stringMatching(/^each payout or payout_reversal ledger entry names a payout/), payoutIds: [ghost] }]);
    await tamper(
      `INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, status, method_kind, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [row.id, row.run_id, row.developer_id, row.amount_mills, row.balance_before_mills, row.held_mills, row.status, row.method_kind, row.created_at],
    );
    expect(await payoutProblems()).toEqual([]);
  });

  it("a balance before that the ledger never had, and an amount above the balance less held (the table's own checks dropped, as a tamperer could)", async () => {
    // Earned 1,400; paid before it 1,000 − 1,000 + 100 + 100 + 10 − 10 + 10 = 210: the balance before it was 1,190, the most it could be.
    const last = await payout(100);
    expect((await t.db.query('SELECT balance_before_mills::int AS before FROM payouts WHERE id = $1', [last])).rows[0].before).toBe(1190);
    expect(await payoutProblems()).toEqual([]);
    await tamper('UPDATE payouts SET balance_before_mills = 5000 WHERE id = $1', [last]);
    expect(await payoutProblems()).toEqual([{ rule: expect.stringMatching(/^each payout's balance before is no more than the developer ever earned/), payoutIds: [last] }]);
    await tamper('UPDATE payouts SET balance_before_mills = 1190 WHERE id = $1', [last]);
    expect(await payoutProblems()).toEqual([]);

    const { rows } = await t.db.query(`SELECT conname FROM pg_constraint WHERE conrelid = 'payouts'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%held_mills%'`);
    for (const constraint of rows) await t.db.query(`ALTER TABLE payouts DROP CONSTRAINT ${constraint.conname}`);
    await tamper('UPDATE payouts SET held_mills = 1150 WHERE id = $1', [last]);
    expect(await payoutProblems()).toEqual([{ rule: expect.stringMatching(/^each payout: its amount is above 0 and at most its balance before less the held/), payoutIds: [last] }]);
    const cli = await runCheckInvariants(t.databaseUrl);
    expect({ code: cli.code, failed: cli.failedNames }).toEqual({ code: 1, failed: ['payouts_within_earnings'] });
    expect(rowsAbout(cli.checks, 'payouts_within_earnings', last)).toEqual([expect.objectContaining({ amount_mills: '100', balance_before_mills: '1190', held_mills: '1150' })]);
  });
});
