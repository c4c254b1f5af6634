import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { findChainBreaks, millsToUsd } from '../../src/modules/wallet';
import { appendToDeveloperLedger, CHAIN_GENESIS_HEX, CHAINS, DEVELOPER_LEDGER_SHARDS } from '../../src/modules/wallet/ledger-append';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { failedChecks, reconciliationChecks, rowsAbout, runCheckInvariants } from '../support/books';
import { behindTriggers } from '../support/database';
import { adminCookie, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession, startSession } from '../support/play';

/**
 * Issue 30 items 1 and 5 (CONTRACT §22): the developer ledger, written in the insertion's and the
 * void's own statements, append-only for everyone, and both ledgers hash-chained, so an edit
 * behind the service's back is found by the chain check and check:invariants, by name. A developer's
 * ledger is DEVELOPER_LEDGER_SHARDS chains, each with its head; an earning or a void goes to its
 * wallet's shard (the uuid's last byte mod N, computed here in Node from the documented rule).
 */
const CHAIN_INVARIANT = "every ledger's hash chain is whole (each wallet's and each developer shard's): the first break of each broken one";

/** The documented shard rule: the last byte of the wallet's uuid, mod the number of shards. */
const shardOf = (walletId: string) => parseInt(walletId.slice(-2), 16) % DEVELOPER_LEDGER_SHARDS;

interface DevEntry {
  id: string;
  shard: number;
  seq: number;
  kind: string;
  amount: number;
  balanceAfter: number;
  insertionId: string | null;
}

describe('the developer ledger', () => {
  let t: TestApp;
  let app: DataSource;
  let admin: string;

  beforeAll(async () => {
    t = await createWorldApp();
    app = t.app.dataSource;
    admin = await adminCookie(t);
  });
  afterAll(async () => t.close());

  async function entriesOf(developerId: string): Promise<DevEntry[]> {
    const { rows } = await t.db.query<DevEntry>(
      `SELECT id::text, shard, seq, kind, amount_mills::int AS amount, balance_after_mills::int AS "balanceAfter", insertion_id AS "insertionId"
         FROM developer_ledger_entries WHERE developer_id = $1 ORDER BY shard, seq`,
      [developerId],
    );
    return rows;
  }

  type Head = { shard: number; balance: number; lastSeq: number; lastHash: string };
  /** Every shard head of the developer, in shard order. */
  async function headsOf(developerId: string): Promise<Head[]> {
    const { rows } = await t.db.query<Head>(
      `SELECT shard, balance_mills::int AS balance, last_seq AS "lastSeq", encode(last_hash, 'hex') AS "lastHash" FROM developer_balances WHERE developer_id = $1 ORDER BY shard`,
      [developerId],
    );
    return rows;
  }
  /** The head of one wallet's shard; every other shard still at (0, 0, genesis). */
  async function headOf(developerId: string, walletId: string): Promise<Head> {
    const heads = await headsOf(developerId);
    expect(heads.map((h) => h.shard)).toEqual(Array.from({ length: DEVELOPER_LEDGER_SHARDS }, (_, i) => i));
    expect(heads.filter((h) => h.shard !== shardOf(walletId) && (h.balance !== 0 || h.lastSeq !== 0 || h.lastHash !== CHAIN_GENESIS_HEX))).toEqual([]);
    return heads[shardOf(walletId)]!;
  }

  async function voidIt(insertionId: string) {
    return t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).send({ reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') });
  }

  /** A developer with a published game (coinsPerCredit 2) and a funded player. */
  async function world(coins = 20) {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, coins);
    const walletId: string = (await t.db.query('SELECT id FROM wallets WHERE player_id = $1', [player.playerId])).rows[0].id;
    return { dev, game, player, walletId };
  }

  it('writes +70% per paid insertion and −the earning per void, with running balances, and the earnings answers equal the ledger', async () => {
    const { dev, game, player, walletId } = await world();
    const first = await paidSession(t, player, game.slug);
    const second = await paidSession(t, player, game.slug);
    expect((await voidIt(first.insertionId)).status).toBe(200);
    // Test mode writes nothing.
    await startSession(t, dev, game.slug, { preview: true });

    expect(await entriesOf(dev.developerId)).toEqual([
      { id: expect.any(String), shard: shardOf(walletId), seq: 1, kind: 'earning', amount: 350, balanceAfter: 350, insertionId: first.insertionId },
      { id: expect.any(String), shard: shardOf(walletId), seq: 2, kind: 'earning', amount: 350, balanceAfter: 700, insertionId: second.insertionId },
      { id: expect.any(String), shard: shardOf(walletId), seq: 3, kind: 'void', amount: -350, balanceAfter: 350, insertionId: first.insertionId },
    ]);
    const head = await headOf(dev.developerId, walletId);
    expect(head).toMatchObject({ balance: 350, lastSeq: 3 });
    // The §3 answer (from the per-insertion records) and the ledger's sum are the same money.
    const earnings = await t.http().get('/api/portal/earnings').set('Cookie', dev.cookie).expect(200);
    expect(earnings.body.total).toEqual({ insertions: 1, coins: 2, grossUsd: '0.5', earnedUsd: '0.35' });
    expect(earnings.body.total.earnedUsd).toBe(millsToUsd(head.balance));
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  });

  it('chains each entry with sha256(previous hash || its fields), encoded as documented (a reason with a quote and a backslash included), the head keeping the newest hash', async () => {
    const { dev, game, player, walletId } = await world();
    await paidSession(t, player, game.slug);
    await paidSession(t, player, game.slug);
    // A reason is free text: a quote, a backslash and the separator must not shift the other fields.
    const tricky = "Goodwill: it's a|b \\ c";
    await t.http().post(`/api/admin/wallets/${player.accountId}/credits`).set('Cookie', admin).send({ coins: 3, reason: tricky, idempotencyKey: idempotencyKey('tricky') }).expect(201);

    /** SQL's quote_nullable, in Node: the documented text of a free-text field. */
    const literal = (text: string | null) =>
      text === null ? 'NULL' : text.includes('\\') ? `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${text.replace(/'/g, "''")}'`;
    /** The documented encoding, in Node: the ledger's tag and the fields' texts joined by '|' (null as nothing, free text quoted), in UTF-8. */
    const encode = (fields: (string | null)[], freeText: readonly number[] = []) =>
      Buffer.from(fields.map((f, i) => (freeText.includes(i) ? literal(f) : (f ?? ''))).join('|'), 'utf8');
    const chain = (rows: { hash: Buffer; fields: (string | null)[] }[], freeText: readonly number[] = []) => {
      let previous: Buffer = Buffer.from(CHAIN_GENESIS_HEX, 'hex');
      return rows.map((row) => {
        const expected = createHash('sha256').update(previous).update(encode(row.fields, freeText)).digest();
        previous = row.hash;
        return { stored: row.hash.toString('hex'), expected: expected.toString('hex') };
      });
    };
    const micros = `((extract(epoch FROM created_at) * 1000000)::bigint)::text`;

    const dev_ = await t.db.query(
      `SELECT hash, developer_id::text, shard::text, seq::text, kind, amount_mills::text, balance_after_mills::text, insertion_id::text,
              game_id::text, coins::text, gross_mills::text, payout_id::text, ${micros} AS created
         FROM developer_ledger_entries WHERE developer_id = $1 ORDER BY seq`,
      [dev.developerId],
    );
    const devChain = chain(dev_.rows.map((r) => ({ hash: r.hash, fields: [CHAINS.developer.tag, r.developer_id, r.shard, r.seq, r.kind, r.amount_mills, r.balance_after_mills, r.insertion_id, r.game_id, r.coins, r.gross_mills, r.payout_id, r.created] })));
    expect(devChain).toHaveLength(2);
    for (const link of devChain) expect(link.stored).toBe(link.expected);
    expect(dev_.rows.map((r) => Number(r.shard))).toEqual([shardOf(walletId), shardOf(walletId)]);
    expect((await headOf(dev.developerId, walletId)).lastHash).toBe(devChain[1]!.stored);
    // A developer with no entry yet has all its shard heads at (0, 0, genesis).
    const freshDev = await createDeveloper(t);
    expect(await headsOf(freshDev.developerId)).toEqual(Array.from({ length: DEVELOPER_LEDGER_SHARDS }, (_, shard) => ({ shard, balance: 0, lastSeq: 0, lastHash: CHAIN_GENESIS_HEX })));

    const wallet = await t.db.query(
      `SELECT hash, wallet_id::text, seq::text, kind, delta::text, balance_after::text, reason, purchase_id::text, ${micros} AS created
         FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq`,
      [walletId],
    );
    const walletChain = chain(wallet.rows.map((r) => ({ hash: r.hash, fields: [CHAINS.wallet.tag, r.wallet_id, r.seq, r.kind, r.delta, r.balance_after, r.reason, r.purchase_id, r.created] })), [6]);
    expect(walletChain).toHaveLength(4); // the credit, two debits and the tricky credit
    expect(wallet.rows[3].reason).toBe(tricky);
    for (const link of walletChain) expect(link.stored).toBe(link.expected);
    const head = await t.db.query(`SELECT encode(last_hash, 'hex') AS h FROM wallets WHERE id = $1`, [walletId]);
    expect(head.rows[0].h).toBe(walletChain[3]!.stored);
    // A wallet with no entry yet sits at the genesis hash.
    const fresh = await signUpVerifiedPlayer(t);
    const empty = await t.db.query(`SELECT encode(last_hash, 'hex') AS h FROM wallets WHERE player_id = $1`, [fresh.playerId]);
    expect(empty.rows[0].h).toBe(CHAIN_GENESIS_HEX);
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE refused to the app role (privilege) and to the owner (trigger); a head refuses anything but its newest entry', async () => {
    const { dev, game, player } = await world();
    await paidSession(t, player, game.slug);
    const refused = async (db: { query(sql: string): Promise<unknown> }, sql: string) => {
      try {
        await db.query(sql);
        return 'allowed';
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
    };
    for (const sql of ['UPDATE developer_ledger_entries SET amount_mills = amount_mills * 2', 'DELETE FROM developer_ledger_entries', 'TRUNCATE developer_ledger_entries']) {
      expect({ sql, answer: await refused(app, sql) }).toEqual({ sql, answer: expect.stringMatching(/^42501: permission denied/) });
    }
    for (const sql of ['UPDATE developer_ledger_entries SET amount_mills = amount_mills * 2', 'DELETE FROM developer_ledger_entries', 'TRUNCATE developer_ledger_entries CASCADE']) {
      expect({ sql, answer: await refused(t.db, sql) }).toEqual({ sql, answer: expect.stringMatching(/^42501: developer_ledger_entries is append-only/) });
    }
    const d = `'${dev.developerId}'`;
    expect(await refused(app, `DELETE FROM developer_balances WHERE developer_id = ${d}`)).toMatch(/^42501: permission denied/);
    expect(await refused(t.db, `DELETE FROM developer_balances WHERE developer_id = ${d}`)).toMatch(/^42501: developer_balances keeps its rows/);
    expect(await refused(t.db, 'TRUNCATE developer_balances')).toMatch(/^42501: developer_balances keeps its rows/);
    // One head per shard: a second one (to fork a chain) is refused.
    expect(await refused(t.db, `INSERT INTO developer_balances (developer_id, shard, balance_mills, last_seq, last_hash) VALUES (${d}, 0, 0, 0, '\\x${CHAIN_GENESIS_HEX}')`)).toMatch(/^23505: .*developer_balances_pkey/);
    // The head follows its ledger, for every role (the app role may UPDATE the head: the append does).
    for (const db of [app, t.db]) {
      expect(await refused(db, `UPDATE developer_balances SET balance_mills = balance_mills + 5000000 WHERE developer_id = ${d}`)).toMatch(/^23514: developer .* are not its newest ledger entry's/);
      expect(await refused(db, `UPDATE developer_balances SET last_hash = sha256('x') WHERE developer_id = ${d}`)).toMatch(/^23514: /);
    }
    // Nor may a wallet's head take a hash its newest entry does not have.
    expect(await refused(t.db, `UPDATE wallets SET last_hash = sha256('x') WHERE player_id = '${player.playerId}'`)).toMatch(/^23514: wallet .*: last_hash .* is not its newest ledger entry's/);
    // An entry of the wrong sign, or without what it is about, or a second earning for one insertion.
    const insertionId = (await entriesOf(dev.developerId))[0]!.insertionId;
    // An insertion's entry carries its game, coins and gross (one coin: 250 gross, 175 earned).
    const insert = (kind: string, amount: number, insertion: string | null, payout: string | null) =>
      refused(t.db, `INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, insertion_id, game_id, coins, gross_mills, payout_id, hash)
                     VALUES (${d}, 0, 9, '${kind}', ${amount}, 0, ${insertion ? `'${insertion}', '${game.gameId}', 1, 250` : 'NULL, NULL, NULL, NULL'}, ${payout ? `'${payout}'` : 'NULL'}, sha256('x'))`);
    expect(await insert('earning', -175, insertionId, null)).toMatch(/developer_ledger_entries_kind_sign/);
    expect(await insert('payout', -175, insertionId, null)).toMatch(/developer_ledger_entries_(insertion|payout)_link/);
    expect(await insert('earning', 175, insertionId, null)).toMatch(/developer_ledger_entries_earning_key/);
    expect(await insert('bonus', 175, null, null)).toMatch(/developer_ledger_entries_kind/);
    // An earning that is not 70% of its gross, or without its game.
    expect(await refused(t.db, `INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, insertion_id, game_id, coins, gross_mills, hash)
                                VALUES (${d}, 0, 9, 'earning', 200, 0, '${insertionId}', '${game.gameId}', 1, 250, sha256('x'))`)).toMatch(/developer_ledger_entries_insertion_amounts/);
    expect(await refused(t.db, `INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, insertion_id, coins, gross_mills, hash)
                                VALUES (${d}, 0, 9, 'earning', 175, 0, '${insertionId}', 1, 250, sha256('x'))`)).toMatch(/developer_ledger_entries_insertion_fields/);
    expect(await refused(t.db, `INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, payout_id, hash)
                                VALUES (${d}, ${DEVELOPER_LEDGER_SHARDS}, 1, 'payout', -5, -5, gen_random_uuid(), sha256('x'))`)).toMatch(/developer_ledger_entries_shard_range/);
    expect(await entriesOf(dev.developerId)).toHaveLength(1);
  });

  it('an insert-coin or a void rolled back leaves no entry and the head where it was: they are written in the same transaction', async () => {
    const { dev, game, player, walletId } = await world();
    const kept = await paidSession(t, player, game.slug);
    const before = await headsOf(dev.developerId);
    const uow = t.app.nest.get(UnitOfWork);
    const wallets = t.app.nest.get(WalletService);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = randomUUID();
    const rollback = new Error('rolled back after the money statement');

    await expect(
      uow.run(async () => {
        await wallets.payForInsertion({ walletId, coins: 2, insertionId, playSessionId: sessionId, gameId: game.gameId, playerId: player.playerId, developerId: dev.developerId });
        // Inside the transaction the earning's entry is there...
        expect(await uow.query('SELECT kind FROM developer_ledger_entries WHERE insertion_id = $1', [insertionId])).toEqual([{ kind: 'earning' }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    // ...and gone with it.
    expect((await t.db.query('SELECT count(*)::int AS n FROM developer_ledger_entries WHERE insertion_id = $1', [insertionId])).rows[0].n).toBe(0);
    expect(await headsOf(dev.developerId)).toEqual(before);

    await expect(
      uow.run(async () => {
        const locked = await wallets.lockInsertionForVoid(kept.insertionId);
        await wallets.voidInsertion(locked!, 'rolled back', (await t.db.query('SELECT id FROM accounts WHERE is_admin LIMIT 1')).rows[0].id);
        expect(await uow.query("SELECT amount_mills::int AS amount FROM developer_ledger_entries WHERE insertion_id = $1 AND kind = 'void'", [kept.insertionId])).toEqual([{ amount: -350 }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect((await entriesOf(dev.developerId)).map((e) => e.kind)).toEqual(['earning']);
    expect(await headsOf(dev.developerId)).toEqual(before);
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  });

  it("parallel insert-coins by many players and a void on the same developer, all queued behind its heads held as a payout holds them: each player's entries in its wallet's shard, every shard gap-free, the heads' sum the ledger's", async () => {
    // Its own app: enough connections for every request to wait inside the database at once.
    const r = await createWorldApp({ env: { DB_POOL_SIZE: '30', DB_STATEMENT_TIMEOUT_MS: '10000', DB_ACQUIRE_TIMEOUT_MS: '10000' } });
    try {
      const dev = await createDeveloper(r);
      const game = await publishGame(r, dev, { coinsPerCredit: 1 });
      const players = await Promise.all(Array.from({ length: 8 }, () => signUpVerifiedPlayer(r)));
      for (const p of players) await fundPlayer(r, p, 5);
      const toVoid = await paidSession(r, players[0]!, game.slug);
      // One play session per insert-coin (a play session takes one every 500 ms).
      const coins = await Promise.all(players.flatMap((p) => [0, 1, 2].map(async () => ({ p, sessionId: (await startSession(r, p, game.slug)).sessionId }))));
      const radmin = await adminCookie(r);
      const requests = [
        ...coins.map(({ p, sessionId }) => () => r.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', p.cookie).send({ idempotencyKey: idempotencyKey('race') })),
        () => r.http().post(`/api/admin/insertions/${toVoid.insertionId}/void`).set('Cookie', radmin).send({ reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }),
      ];

      // Every shard head of the developer is held elsewhere, in shard order as a payout locks them (lockDeveloperHeads),
      // until every request waits for a lock: then they all run against each other.
      const holder = new Client({ connectionString: r.databaseUrl });
      await holder.connect();
      let answers: { status: number }[];
      let waited = 0;
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT developer_id FROM developer_balances WHERE developer_id = $1 ORDER BY shard FOR UPDATE', [dev.developerId]);
        const inFlight = requests.map((send) => send().then((res) => res));
        const deadline = Date.now() + 20_000;
        while (waited < requests.length) {
          if (Date.now() > deadline) throw new Error(`only ${waited} of ${requests.length} requests reached the held lock`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          waited = Number((await r.db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).rows[0].n);
        }
        await holder.query('COMMIT');
        answers = await Promise.all(inFlight);
      } finally {
        await holder.end();
      }
      expect(waited).toBe(requests.length);
      expect(answers.map((a) => a.status)).toEqual(requests.map(() => 200));

      const { rows: entries } = await r.db.query<{ shard: number; seq: number; kind: string; amount: number; balanceAfter: number; walletId: string }>(
        `SELECT e.shard, e.seq, e.kind, e.amount_mills::int AS amount, e.balance_after_mills::int AS "balanceAfter", w.wallet_id AS "walletId"
           FROM developer_ledger_entries e JOIN insertions i ON i.id = e.insertion_id JOIN ledger_entries w ON w.id = i.ledger_entry_id
          WHERE e.developer_id = $1 ORDER BY e.shard, e.seq`,
        [dev.developerId],
      );
      expect(entries.filter((e) => e.kind === 'earning')).toHaveLength(1 + 24);
      expect(entries.filter((e) => e.kind === 'void')).toHaveLength(1);
      expect(entries.filter((e) => e.shard !== shardOf(e.walletId))).toEqual([]);
      const { rows: heads } = await r.db.query<{ shard: number; balance: number; lastSeq: number }>(
        'SELECT shard, balance_mills::int AS balance, last_seq AS "lastSeq" FROM developer_balances WHERE developer_id = $1 ORDER BY shard',
        [dev.developerId],
      );
      expect(heads).toHaveLength(DEVELOPER_LEDGER_SHARDS);
      let total = 0;
      for (const head of heads) {
        const chain = entries.filter((e) => e.shard === head.shard);
        expect(chain.map((e) => e.seq)).toEqual(chain.map((_, i) => i + 1));
        let running = 0;
        for (const e of chain) expect(e.balanceAfter).toBe((running += e.amount));
        expect(head).toEqual({ shard: head.shard, balance: running, lastSeq: chain.length });
        total += running;
      }
      expect(total).toBe(24 * 175);
      const earnings = await r.http().get('/api/portal/earnings').set('Cookie', dev.cookie).expect(200);
      expect(earnings.body.total.earnedUsd).toBe(millsToUsd(total));
      expect(await findChainBreaks(r.db)).toEqual([]);
      expect((await checkInvariants(r.db)).violations).toEqual([]);
    } finally {
      await r.close();
    }
  });

  it("payouts and their reversals go through the same append (written by the payouts work) in the developer-level shard 0, every shard locked first; they answer the developer's balance (the shards' sum): signs refused when wrong, chains whole", async () => {
    const { dev, game, player, walletId } = await world();
    await paidSession(t, player, game.slug);
    const uow = t.app.nest.get(UnitOfWork);
    const payoutId = randomUUID();
    // The payout's row and the entry go together (the database holds them to each other at COMMIT), as the payout run writes them.
    const paid = await uow.run(async () => {
      const runId = randomUUID();
      await uow.query('INSERT INTO payout_runs (id, idempotency_key, requested_by) VALUES ($1, $2, $3)', [runId, `ledger-test-${runId}`, dev.accountId]);
      await uow.query("INSERT INTO payouts (id, run_id, developer_id, amount_mills, balance_before_mills, held_mills, method_kind) VALUES ($1, $2, $3, 350, 350, 0, 'sandbox')", [payoutId, runId, dev.developerId]);
      return appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout', amountMills: -350, payoutId });
    });
    expect(paid.balanceMills).toBe(0);
    await expect(uow.run(() => appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout_reversal', amountMills: -350, payoutId }))).rejects.toThrow(/moves money in/);
    const back = await uow.run(async () => {
      await uow.query("UPDATE payouts SET status = 'failed', failure_reason = 'Returned', failed_at = now() WHERE id = $1", [payoutId]);
      return appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout_reversal', amountMills: 350, payoutId });
    });
    expect(back.balanceMills).toBe(350);
    // A second reversal of one payout is refused by the database.
    await expect(uow.run(() => appendToDeveloperLedger(uow, { developerId: dev.developerId, kind: 'payout_reversal', amountMills: 350, payoutId }))).rejects.toThrow(/developer_ledger_entries_payout_reversal_key/);
    // Each entry's balance is its shard's running balance; the developer's is their sum.
    const s = shardOf(walletId);
    const shard0 = s === 0 ? 350 : 0;
    expect((await entriesOf(dev.developerId)).map((e) => [e.shard, e.kind, e.amount, e.balanceAfter]).sort((a, b) => Number(a[0]) - Number(b[0]) || 0)).toEqual(
      [
        [s, 'earning', 350, 350],
        [0, 'payout', -350, shard0 - 350],
        [0, 'payout_reversal', 350, shard0],
      ].sort((a, b) => Number(a[0]) - Number(b[0]) || 0),
    );
    expect((await headsOf(dev.developerId)).reduce((sum, h) => sum + h.balance, 0)).toBe(350);
    expect(await findChainBreaks(t.db)).toEqual([]);
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  });

  describe('tampering as the schema owner with the triggers off is found, by ledger and entry', () => {
    /** A developer with `n` earnings (and the player's wallet with a credit and `n` debits). */
    async function history(n: number): Promise<{ dev: Developer; walletId: string; entries: DevEntry[]; walletEntries: { id: string; seq: number }[] }> {
      const { dev, game, player, walletId } = await world(2 * n);
      for (let i = 0; i < n; i++) await paidSession(t, player, game.slug);
      const walletEntries = (await t.db.query('SELECT id::text, seq FROM ledger_entries WHERE wallet_id = $1 ORDER BY seq', [walletId])).rows;
      return { dev, walletId, entries: await entriesOf(dev.developerId), walletEntries };
    }

    async function breaksOf(ledgerId: string) {
      return (await findChainBreaks(t.db)).filter((b) => b.ledgerId === ledgerId);
    }

    /**
     * What the books say about the ledger: the hash_chains check's rows about it, the same from
     * check:invariants' report (in process), from the reconciliation endpoint and from the
     * `npm run check:invariants` script (which exits 1 and names every failed check).
     */
    async function reported(ledgerId: string) {
      const inProcess = (await checkInvariants(t.db)).violations.filter((v) => v.check === 'hash_chains' && v.invariant === CHAIN_INVARIANT);
      const rows = (inProcess[0]?.rows ?? []).filter((row) => row.ledgerId === ledgerId);
      const api = await reconciliationChecks(t);
      expect(failedChecks(api)).toContain('hash_chains');
      expect(rowsAbout(api, 'hash_chains', ledgerId)).toEqual(JSON.parse(JSON.stringify(rows)));
      const cli = await runCheckInvariants(t.databaseUrl);
      expect(cli.code).toBe(1);
      expect(cli.failedNames).toEqual(failedChecks(cli.checks));
      expect(cli.failedNames).toContain('hash_chains');
      expect(rowsAbout(cli.checks, 'hash_chains', ledgerId)).toEqual(JSON.parse(JSON.stringify(rows)));
      return rows;
    }

    it('an amount changed (developer ledger and wallet ledger)', async () => {
      const { dev, walletId, entries, walletEntries } = await history(3);
      expect(await breaksOf(dev.developerId)).toEqual([]);
      expect(await behindTriggers(t.db, 'UPDATE developer_ledger_entries SET amount_mills = 3500, coins = 20, gross_mills = 5000, balance_after_mills = balance_after_mills + 3150 WHERE id = $1', [entries[1]!.id])).toBe(1);
      const expected = [{ ledger: 'developer', ledgerId: dev.developerId, shard: shardOf(walletId), entryId: entries[1]!.id, seq: 2, problem: expect.stringMatching(/^its hash is not sha256/) }];
      expect(await breaksOf(dev.developerId)).toEqual(expected);
      expect(await reported(dev.developerId)).toEqual(expected);

      expect(await behindTriggers(t.db, 'UPDATE ledger_entries SET delta = 5000, balance_after = balance_after + 5000 WHERE id = $1', [walletEntries[0]!.id])).toBe(1);
      const wallet = [{ ledger: 'wallet', ledgerId: walletId, shard: null, entryId: walletEntries[0]!.id, seq: 1, problem: expect.stringMatching(/^its hash is not sha256/) }];
      expect(await breaksOf(walletId)).toEqual(wallet);
      expect(await reported(walletId)).toEqual(wallet);
    });

    it('an entry deleted (in the middle, and the newest)', async () => {
      const { dev, walletId, entries, walletEntries } = await history(3);
      expect(await behindTriggers(t.db, 'DELETE FROM developer_ledger_entries WHERE id = $1', [entries[1]!.id])).toBe(1);
      const expected = [{ ledger: 'developer', ledgerId: dev.developerId, shard: shardOf(walletId), entryId: entries[2]!.id, seq: 3, problem: 'seq 3 follows seq 1: an entry is missing' }];
      expect(await breaksOf(dev.developerId)).toEqual(expected);
      expect(await reported(dev.developerId)).toEqual(expected);

      // The newest wallet entry (its insertion's row refers to it: removed too, as a thief would).
      const newest = walletEntries[walletEntries.length - 1]!;
      await behindTriggers(t.db, 'DELETE FROM scores WHERE insertion_id IN (SELECT id FROM insertions WHERE ledger_entry_id = $1)', [newest.id]);
      await behindTriggers(t.db, 'DELETE FROM developer_earnings WHERE insertion_id IN (SELECT id FROM insertions WHERE ledger_entry_id = $1)', [newest.id]);
      await behindTriggers(t.db, 'DELETE FROM developer_ledger_entries WHERE insertion_id IN (SELECT id FROM insertions WHERE ledger_entry_id = $1)', [newest.id]);
      await behindTriggers(t.db, 'DELETE FROM insertions WHERE ledger_entry_id = $1', [newest.id]);
      expect(await behindTriggers(t.db, 'DELETE FROM ledger_entries WHERE id = $1', [newest.id])).toBe(1);
      const wallet = [{ ledger: 'wallet', ledgerId: walletId, shard: null, entryId: null, seq: null, problem: "its head (balance, last_seq, last_hash) is not its newest entry's" }];
      expect(await breaksOf(walletId)).toEqual(wallet);
      expect(await reported(walletId)).toEqual(wallet);
    });

    it('an entry inserted with its balance and the head moved to match (a forged 5,000-coin credit; a forged payout reversal)', async () => {
      const { dev, walletId, entries, walletEntries } = await history(2);
      expect(entries).toHaveLength(2);
      // A payout reversal goes to the developer-level shard 0: the forgery continues that shard's chain.
      const shard0 = (await headsOf(dev.developerId))[0]!;
      const last = { shard: 0, seq: shard0.lastSeq, balanceAfter: shard0.balance };
      const forgedHash = randomBytes(32);
      await behindTriggers(
        t.db,
        `INSERT INTO developer_ledger_entries (developer_id, shard, seq, kind, amount_mills, balance_after_mills, payout_id, hash)
         VALUES ($1, $6, $2, 'payout_reversal', 5000000, $3, $4, $5)`,
        [dev.developerId, last.seq + 1, last.balanceAfter + 5_000_000, randomUUID(), forgedHash, last.shard],
      );
      await behindTriggers(t.db, 'UPDATE developer_balances SET balance_mills = balance_mills + 5000000, last_seq = last_seq + 1, last_hash = $2 WHERE developer_id = $1 AND shard = $3', [dev.developerId, forgedHash, last.shard]);
      const entryId = (await t.db.query('SELECT id::text FROM developer_ledger_entries WHERE developer_id = $1 AND shard = $2 AND seq = $3', [dev.developerId, last.shard, last.seq + 1])).rows[0].id;
      // The balance is the ledger's sum and the running balances add up: only the chain tells.
      const violations = (await checkInvariants(t.db)).violations.filter((v) => v.rows.some((row) => Object.values(row).includes(dev.developerId)));
      // The forged reversal names no payout: payouts_within_earnings finds it too.
      expect(violations.map((v) => [v.check, v.invariant])).toEqual([
        ['hash_chains', CHAIN_INVARIANT],
        ['payouts_within_earnings', expect.stringMatching(/^each payout or payout_reversal ledger entry names a payout/)],
      ]);
      const expected = [{ ledger: 'developer', ledgerId: dev.developerId, shard: last.shard, entryId, seq: last.seq + 1, problem: expect.stringMatching(/^its hash is not sha256/) }];
      expect(await breaksOf(dev.developerId)).toEqual(expected);
      expect(await reported(dev.developerId)).toEqual(expected);

      // The wallet: the hash copied from the previous entry, as one that knows no better would.
      const previous = walletEntries[walletEntries.length - 1]!;
      await behindTriggers(
        t.db,
        `INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, reason, hash)
         SELECT wallet_id, seq + 1, 5000, balance_after + 5000, 'credit', 'forged', hash FROM ledger_entries WHERE id = $1`,
        [previous.id],
      );
      await behindTriggers(t.db, 'UPDATE wallets w SET balance = e.balance_after, last_seq = e.seq, last_hash = e.hash FROM ledger_entries e WHERE e.wallet_id = w.id AND e.seq = $2 AND w.id = $1', [walletId, previous.seq + 1]);
      const walletEntry = (await t.db.query('SELECT id::text FROM ledger_entries WHERE wallet_id = $1 AND seq = $2', [walletId, previous.seq + 1])).rows[0].id;
      const wallet = [{ ledger: 'wallet', ledgerId: walletId, shard: null, entryId: walletEntry, seq: previous.seq + 1, problem: expect.stringMatching(/^its hash is not sha256/) }];
      expect(await breaksOf(walletId)).toEqual(wallet);
      expect(await reported(walletId)).toEqual(wallet);
    });
  });
});
