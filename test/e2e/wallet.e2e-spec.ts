import { TestApp } from '../support/app';
import { adminCookie, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, insertCoin, startSession } from '../support/play';

/** CONTRACT §2 (GET /api/me/wallet), §3 (earnings), §4 (admin credits), §8 (the ledger). */
describe('wallet, admin credits and earnings', () => {
  let t: TestApp;
  let admin: string;

  const credit = (userId: string, body: object, cookie = admin) =>
    t.http().post(`/api/admin/wallets/${userId}/credits`).set('Cookie', cookie).send(body);

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
  });
  afterAll(async () => t.close());

  describe('POST /api/admin/wallets/{userId}/credits', () => {
    it('credits once: 201 fresh, 200 replayed on retry, one ledger entry', async () => {
      const player = await signUpVerifiedPlayer(t);
      const body = { coins: 25, reason: 'Welcome bonus', idempotencyKey: idempotencyKey() };
      const first = await credit(player.accountId, body).expect(201);
      expect(first.body).toEqual({ entryId: expect.any(String), balance: 25, replayed: false });
      const retry = await credit(player.accountId, body).expect(200);
      expect(retry.body).toEqual({ ...first.body, replayed: true });
      const rows = await t.db.query(
        `SELECT le.id::text AS id, le.seq, le.delta, le.balance_after::int AS balance_after, le.kind, le.reason
           FROM ledger_entries le JOIN wallets w ON w.id = le.wallet_id WHERE w.player_id = $1`,
        [player.playerId],
      );
      expect(rows.rows).toEqual([{ id: first.body.entryId, seq: 1, delta: 25, balance_after: 25, kind: 'credit', reason: 'Welcome bonus' }]);
      const second = await credit(player.accountId, { ...body, idempotencyKey: idempotencyKey() }).expect(201);
      expect(second.body.balance).toBe(50);
    });

    it('answers 409 IDEMPOTENCY_KEY_CONFLICT for the same key with another body or another user', async () => {
      const one = await signUpVerifiedPlayer(t);
      const two = await signUpVerifiedPlayer(t);
      const key = idempotencyKey();
      await credit(one.accountId, { coins: 5, reason: 'x', idempotencyKey: key }).expect(201);
      expect((await credit(one.accountId, { coins: 6, reason: 'x', idempotencyKey: key }).expect(409)).body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
      expect((await credit(two.accountId, { coins: 5, reason: 'x', idempotencyKey: key }).expect(409)).body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
      const balances = await t.db.query(
        `SELECT count(*)::int AS n FROM ledger_entries le JOIN wallets w ON w.id = le.wallet_id JOIN players p ON p.id = w.player_id WHERE p.account_id = ANY($1)`,
        [[one.accountId, two.accountId]],
      );
      expect(balances.rows[0].n).toBe(1);
    });

    it('answers 403 FORBIDDEN to non-admins and 401 signed out', async () => {
      const player = await signUpVerifiedPlayer(t);
      const res = await credit(player.accountId, { coins: 5, reason: 'self-service', idempotencyKey: idempotencyKey() }, player.cookie).expect(403);
      expect(res.body.error).toBe('FORBIDDEN');
      await t.http().post(`/api/admin/wallets/${player.accountId}/credits`).send({ coins: 5, reason: 'x', idempotencyKey: idempotencyKey() }).expect(401);
    });

    it('answers 404 NOT_FOUND for an unknown user or one without a player profile; 400 for an id over 64', async () => {
      expect((await credit('00000000-0000-4000-8000-000000000000', { coins: 5, reason: 'x', idempotencyKey: idempotencyKey() }).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await credit('not-a-user', { coins: 5, reason: 'x', idempotencyKey: idempotencyKey() }).expect(404)).body.error).toBe('NOT_FOUND');
      const unlinked = await signUpPlayer(t, { linked: false });
      expect((await credit(unlinked.accountId, { coins: 5, reason: 'x', idempotencyKey: idempotencyKey() }).expect(404)).body.error).toBe('NOT_FOUND');
      expect((await credit('u'.repeat(65), { coins: 5, reason: 'x', idempotencyKey: idempotencyKey() }).expect(400)).body.error).toBe('INVALID_REQUEST');
    });

    it.each([
      [{ coins: 0, reason: 'x' }],
      [{ coins: 100001, reason: 'x' }],
      [{ coins: 1.5, reason: 'x' }],
      [{ coins: 5, reason: '' }],
      [{ coins: 5, reason: 'r'.repeat(201) }],
      [{ coins: 5 }],
      [{ coins: 5, reason: 'x', extra: 1 }],
    ])('answers 400 INVALID_REQUEST for %j', async (body) => {
      const player = await signUpVerifiedPlayer(t);
      expect((await credit(player.accountId, { idempotencyKey: idempotencyKey(), ...body }).expect(400)).body.error).toBe('INVALID_REQUEST');
    });

    it('accepts the bounds 1 and 100000 coins and a 200-character reason', async () => {
      const player = await signUpVerifiedPlayer(t);
      await credit(player.accountId, { coins: 1, reason: 'r'.repeat(200), idempotencyKey: idempotencyKey() }).expect(201);
      const res = await credit(player.accountId, { coins: 100000, reason: 'r', idempotencyKey: idempotencyKey() }).expect(201);
      expect(res.body.balance).toBe(100001);
    });
  });

  describe('GET /api/me/wallet', () => {
    it('lists the balance and the ledger newest first, paging with before / nextBefore', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev, { coinsPerCredit: 3 });
      const player = await signUpVerifiedPlayer(t);
      await credit(player.accountId, { coins: 4, reason: 'first', idempotencyKey: idempotencyKey() }).expect(201);
      await credit(player.accountId, { coins: 6, reason: 'second', idempotencyKey: idempotencyKey() }).expect(201);
      const { sessionId } = await startSession(t, player, game.slug);
      const insertionId = await insertCoin(t, player, sessionId);

      const all = await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200);
      expect(all.body).toEqual({
        balance: 7,
        nextBefore: null,
        entries: [
          { id: expect.any(String), delta: -3, balanceAfter: 7, kind: 'debit', reason: null, insertionId, gameSlug: game.slug, purchaseId: null, createdAt: expect.any(String) },
          { id: expect.any(String), delta: 6, balanceAfter: 10, kind: 'credit', reason: 'second', insertionId: null, gameSlug: null, purchaseId: null, createdAt: expect.any(String) },
          { id: expect.any(String), delta: 4, balanceAfter: 4, kind: 'credit', reason: 'first', insertionId: null, gameSlug: null, purchaseId: null, createdAt: expect.any(String) },
        ],
      });

      const page1 = await t.http().get('/api/me/wallet?limit=2').set('Cookie', player.cookie).expect(200);
      expect(page1.body.entries.map((e: { id: string }) => e.id)).toEqual(all.body.entries.slice(0, 2).map((e: { id: string }) => e.id));
      expect(page1.body.nextBefore).toBe(all.body.entries[1].id);
      const page2 = await t.http().get(`/api/me/wallet?limit=2&before=${page1.body.nextBefore}`).set('Cookie', player.cookie).expect(200);
      expect(page2.body).toEqual({ balance: 7, entries: [all.body.entries[2]], nextBefore: null });
    });

    it('answers 400 for a bad limit or a before that is not one of the caller\'s entries', async () => {
      const one = await signUpVerifiedPlayer(t);
      const two = await signUpVerifiedPlayer(t);
      const foreign = await credit(two.accountId, { coins: 1, reason: 'x', idempotencyKey: idempotencyKey() }).expect(201);
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'before=abc', `before=${foreign.body.entryId}`, 'other=1']) {
        const res = await t.http().get(`/api/me/wallet?${query}`).set('Cookie', one.cookie);
        expect([query, res.status, res.body.error]).toEqual([query, 400, 'INVALID_REQUEST']);
      }
    });

    it('an empty wallet has balance 0; 403 ACCOUNT_NOT_LINKED without a player, 401 signed out', async () => {
      const player = await signUpPlayer(t);
      expect((await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200)).body).toEqual({ balance: 0, entries: [], nextBefore: null });
      const unlinked = await signUpPlayer(t, { linked: false });
      expect((await t.http().get('/api/me/wallet').set('Cookie', unlinked.cookie).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
      await t.http().get('/api/me/wallet').expect(401);
    });
  });

  describe('GET /api/portal/earnings', () => {
    let dev: Developer;

    beforeAll(async () => {
      dev = await createDeveloper(t);
    });

    it('3 insertions at 2 coins per credit: grossUsd "1.5", earnedUsd "1.05"; every game listed, zero rows included', async () => {
      const paid = await publishGame(t, dev, { coinsPerCredit: 2 });
      const idle = await createGame(t, dev, { coinsPerCredit: 5 });
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 6);
      const { sessionId } = await startSession(t, player, paid.slug);
      for (let i = 0; i < 3; i++) {
        await insertCoin(t, player, sessionId);
        t.clock.advance(550);
      }
      const res = await t.http().get('/api/portal/earnings').set('Cookie', dev.cookie).expect(200);
      expect(res.body.currency).toBe('USD');
      expect(res.body.games).toEqual(
        expect.arrayContaining([
          { gameId: paid.gameId, slug: paid.slug, insertions: 3, coins: 6, grossUsd: '1.5', earnedUsd: '1.05' },
          { gameId: idle.gameId, slug: idle.slug, insertions: 0, coins: 0, grossUsd: '0', earnedUsd: '0' },
        ]),
      );
      expect(res.body.games).toHaveLength(2);
      expect(res.body.total).toEqual({ insertions: 3, coins: 6, grossUsd: '1.5', earnedUsd: '1.05' });
    });

    it('counts the owner\'s own paid insertions, not test-mode ones, and only the developer\'s games', async () => {
      const owner = await createDeveloper(t);
      const other = await createDeveloper(t);
      const game = await publishGame(t, owner, { coinsPerCredit: 1 });
      await publishGame(t, other, { coinsPerCredit: 1 });
      await fundPlayer(t, owner, 5);
      const paid = await startSession(t, owner, game.slug);
      await insertCoin(t, owner, paid.sessionId);
      const preview = await startSession(t, owner, game.slug, { preview: true });
      expect(preview.testMode).toBe(true);
      await insertCoin(t, owner, preview.sessionId);
      const res = await t.http().get('/api/portal/earnings').set('Cookie', owner.cookie).expect(200);
      expect(res.body).toEqual({
        currency: 'USD',
        games: [{ gameId: game.gameId, slug: game.slug, insertions: 1, coins: 1, grossUsd: '0.25', earnedUsd: '0.175' }],
        total: { insertions: 1, coins: 1, grossUsd: '0.25', earnedUsd: '0.175' },
      });
    });

    it('a developer without games gets empty rows and zero totals; a non-developer 403 FORBIDDEN', async () => {
      const fresh = await createDeveloper(t);
      expect((await t.http().get('/api/portal/earnings').set('Cookie', fresh.cookie).expect(200)).body).toEqual({
        currency: 'USD',
        games: [],
        total: { insertions: 0, coins: 0, grossUsd: '0', earnedUsd: '0' },
      });
      const player = await signUpVerifiedPlayer(t);
      expect((await t.http().get('/api/portal/earnings').set('Cookie', player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
    });
  });

  describe('the database guards the ledger itself', () => {
    it('rejects UPDATE and DELETE of ledger rows and a negative running balance, issued as raw SQL', async () => {
      const player = await signUpVerifiedPlayer(t);
      const res = await credit(player.accountId, { coins: 3, reason: 'x', idempotencyKey: idempotencyKey() }).expect(201);
      await expect(t.db.query('UPDATE ledger_entries SET delta = 1000, balance_after = 1000 WHERE id = $1', [res.body.entryId])).rejects.toThrow(/append-only/);
      await expect(t.db.query('DELETE FROM ledger_entries WHERE id = $1', [res.body.entryId])).rejects.toThrow(/append-only/);
      const wallet = await t.db.query('SELECT id FROM wallets WHERE player_id = $1', [player.playerId]);
      await expect(
        t.db.query(`INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, hash) VALUES ($1, 2, -5, -2, 'debit', sha256('x'))`, [wallet.rows[0].id]),
      ).rejects.toThrow(/ledger_entries_balance_non_negative/);
      await expect(
        t.db.query(`INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, hash) VALUES ($1, 1, 1, 4, 'credit', sha256('x'))`, [wallet.rows[0].id]),
      ).rejects.toThrow(/ledger_entries_wallet_seq_key/);
      const rows = await t.db.query('SELECT delta, balance_after::int AS balance_after FROM ledger_entries WHERE wallet_id = $1', [wallet.rows[0].id]);
      expect(rows.rows).toEqual([{ delta: 3, balance_after: 3 }]);
    });
  });
});
