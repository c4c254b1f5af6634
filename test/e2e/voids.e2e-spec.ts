/**
 * An admin voids an insertion (CONTRACT §19): the coins back to the player, the earning off the
 * developer, the score off every board, `voidedAt` in developer verification; idempotent with any
 * key; audited. Read back through the API and the database.
 */
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { adminCookie, createApiKey, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, getBoard, idempotencyKey, insertCoin, postInitials, postScore, postTrustedScore, startSession } from '../support/play';
import { WalletService } from '../../src/modules/wallet/wallet.service';
import { balanceOf } from '../support/payments';

type Player = SignedUpUser & { playerId: string };

/** A money string as exact thousandths of a dollar (CONTRACT §16.33: never compared as floats). */
function mills(usd: string): bigint {
  const [whole, fraction = ''] = usd.replace('-', '').split('.');
  const value = BigInt(whole!) * 1000n + BigInt(fraction.padEnd(3, '0'));
  return usd.startsWith('-') ? -value : value;
}

describe('POST /api/admin/insertions/{insertionId}/void', () => {
  let t: TestApp;
  let admin: string;
  let dev: Developer;
  let game: { gameId: string; slug: string };
  let liveKey: string;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
    dev = await createDeveloper(t);
    game = await publishGame(t, dev, { coinsPerCredit: 2 });
    liveKey = (await createApiKey(t, dev, 'live')).key;
  });
  afterAll(async () => {
    try {
      expect((await checkInvariants(t.db)).violations).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const voidIt = (insertionId: string, body: Record<string, unknown> = { reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }, cookie = admin) =>
    t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', cookie).send(body);

  async function scoredInsertion(player: Player, score: number): Promise<{ sessionId: string; insertionId: string; scoreId: string }> {
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    const res = await postScore(t, player, sessionId, score).expect(200);
    if (res.body.needsInitials) await postInitials(t, player, sessionId, res.body.scoreId, 'VOI').expect(200);
    return { sessionId, insertionId, scoreId: res.body.scoreId };
  }

  async function earnings(): Promise<{ insertions: number; coins: number; grossUsd: string; earnedUsd: string }> {
    const res = await t.http().get('/api/portal/earnings').set('Cookie', dev.cookie).expect(200);
    return res.body.games.find((g: { gameId: string }) => g.gameId === game.gameId);
  }

  it('returns the coins, takes the insertion out of the earnings and its score off the boards, and shows voidedAt', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 10);
    const before = await earnings();
    const { insertionId, scoreId } = await scoredInsertion(player, 987654);
    expect((await getBoard(t, game.slug).expect(200)).body.scores.map((s: { scoreId?: string; score: string }) => s.score)).toContain('987654');
    expect(await balanceOf(t, player)).toBe(8);
    expect((await earnings()).insertions).toBe(before.insertions + 1);

    const res = await voidIt(insertionId).expect(200);
    expect(res.body).toEqual({ insertionId, voidedAt: expect.any(String), entryId: expect.any(String), balance: 10, replayed: false });
    expect(await balanceOf(t, player)).toBe(10);

    const wallet = await t.http().get('/api/me/wallet').set('Cookie', player.cookie).expect(200);
    expect(wallet.body.entries[0]).toMatchObject({ id: res.body.entryId, kind: 'void', delta: 2, balanceAfter: 10, insertionId, gameSlug: game.slug, purchaseId: null });

    expect(await earnings()).toEqual(before);
    for (const period of ['all', 'week'] as const) {
      expect((await getBoard(t, game.slug, period).expect(200)).body.scores.map((s: { score: string }) => s.score)).not.toContain('987654');
    }
    expect((await t.db.query('SELECT removed_at IS NOT NULL AS removed FROM scores WHERE id = $1', [scoreId])).rows).toEqual([{ removed: true }]);

    const verified = await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${liveKey}`).expect(200);
    expect(verified.body).toMatchObject({ valid: true, insertionId, voidedAt: res.body.voidedAt });

    const audit = await t.db.query('SELECT actor_id, action, target_type, target_id, reason, details, request_id FROM audit_log WHERE target_id = $1', [insertionId]);
    expect(audit.rows).toEqual([
      {
        actor_id: expect.any(String),
        action: 'insertion.void',
        target_type: 'insertion',
        target_id: insertionId,
        reason: 'Charged by a game bug',
        details: { coins: 2, gameId: game.gameId, developerId: dev.developerId, playerId: player.playerId, entryId: res.body.entryId, scoreId },
        request_id: res.headers['x-request-id'],
      },
    ]);
  });

  it('subtracts a void from the daily earnings on the day of the void, and from this month\'s', async () => {
    const wallets = t.app.nest.get(WalletService);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 4);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    const today = async () => (await wallets.dailyEarnings(dev.developerId, 3, game.gameId)).days;
    const month = async () => (await wallets.earningsThisMonth(dev.developerId)).find((g) => g.gameId === game.gameId)!;
    const [daysBefore, monthBefore] = [await today(), await month()];
    await voidIt(insertionId).expect(200);
    const [daysAfter, monthAfter] = [await today(), await month()];
    expect(daysAfter.slice(0, 2)).toEqual(daysBefore.slice(0, 2));
    expect(daysAfter[2]!.date).toBe(daysBefore[2]!.date);
    expect(daysAfter[2]!.insertions).toBe(daysBefore[2]!.insertions - 1);
    expect(daysAfter[2]!.coins).toBe(daysBefore[2]!.coins - 2);
    expect(mills(daysBefore[2]!.grossUsd) - mills(daysAfter[2]!.grossUsd)).toBe(500n);
    expect(mills(daysBefore[2]!.earnedUsd) - mills(daysAfter[2]!.earnedUsd)).toBe(350n);
    expect(monthAfter.insertions).toBe(monthBefore.insertions - 1);
    expect(monthAfter.coins).toBe(monthBefore.coins - 2);
  });

  it('answers a second void, with any key, with the first answer and replayed: true, changing nothing', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 6);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    const key = idempotencyKey('void-first');
    const first = await voidIt(insertionId, { reason: 'first', idempotencyKey: key }).expect(200);
    const sameKey = await voidIt(insertionId, { reason: 'first', idempotencyKey: key }).expect(200);
    const otherKey = await voidIt(insertionId, { reason: 'another admin, another reason', idempotencyKey: idempotencyKey('void-second') }).expect(200);
    expect(sameKey.body).toEqual({ ...first.body, replayed: true });
    expect(otherKey.body).toEqual({ ...first.body, replayed: true });
    expect(await balanceOf(t, player)).toBe(6);
    expect((await t.db.query("SELECT count(*)::int AS n FROM audit_log WHERE target_id = $1", [insertionId])).rows[0].n).toBe(1);
    expect((await voidIt(insertionId, { reason: 'changed', idempotencyKey: key }).expect(409)).body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
  });

  it('voids once when admins void one insertion at the same moment', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 4);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => voidIt(insertionId, { reason: `race ${i}`, idempotencyKey: idempotencyKey('race') })));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(answers.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.entryId)).size).toBe(1);
    expect(await balanceOf(t, player)).toBe(4);
    expect((await t.db.query("SELECT count(*)::int AS n FROM ledger_entries l JOIN wallets w ON w.id = l.wallet_id WHERE w.player_id = $1 AND l.kind = 'void'", [player.playerId])).rows[0].n).toBe(1);
  });

  it('takes no score on a voided insertion: 409 INSERTION_VOIDED for the player and the developer\'s backend, nothing saved (CONTRACT §19.1)', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 4);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    await voidIt(insertionId).expect(200);
    const own = await postScore(t, player, sessionId, 5).expect(409);
    expect(own.body).toEqual({ error: 'INSERTION_VOIDED', message: expect.any(String) });
    const trusted = await postTrustedScore(t, liveKey, insertionId, 5).expect(409);
    expect(trusted.body).toEqual({ error: 'INSERTION_VOIDED', message: expect.any(String) });
    expect((await t.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId])).rows[0].n).toBe(0);
    t.clock.advance(550);
    await insertCoin(t, player, sessionId);
    await postScore(t, player, sessionId, 5).expect(200);
  });

  it('answers INSERTION_VOIDED before INSERTION_ALREADY_SCORED, and before 422, for a scored insertion that was voided', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 2);
    const { sessionId, insertionId } = await scoredInsertion(player, 31);
    await voidIt(insertionId).expect(200);
    for (const score of [32, 10_000_000]) {
      expect((await postScore(t, player, sessionId, score).expect(409)).body.error).toBe('INSERTION_VOIDED');
      expect((await postTrustedScore(t, liveKey, insertionId, score).expect(409)).body.error).toBe('INSERTION_VOIDED');
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM scores WHERE insertion_id = $1', [insertionId])).rows[0].n).toBe(1);
  });

  it('ends each of 40 void/score races one of two ways: the score saved then taken off every board, or refused 409 INSERTION_VOIDED', async () => {
    const raceGame = await publishGame(t, dev, { coinsPerCredit: 1 });
    const players = await Promise.all(Array.from({ length: 4 }, () => signUpVerifiedPlayer(t)));
    // Saved initials: every score takes them at once and stands on the public boards (§16.8).
    for (const player of players) {
      await fundPlayer(t, player, 11);
      const { sessionId } = await startSession(t, player, raceGame.slug);
      await insertCoin(t, player, sessionId);
      const first = await postScore(t, player, sessionId, 1).expect(200);
      await postInitials(t, player, sessionId, first.body.scoreId, 'RAC').expect(200);
    }
    const pairs = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const player = players[i % players.length]!;
        const { sessionId } = await startSession(t, player, raceGame.slug);
        return { i, player, sessionId, insertionId: await insertCoin(t, player, sessionId), score: 1_000_000 + i };
      }),
    );

    const outcomes = await Promise.all(
      pairs.map(async (p) => {
        // Player and trusted scores mixed; which of the two is sent first alternates too.
        const score = () => (p.i % 2 === 0 ? postScore(t, p.player, p.sessionId, p.score) : postTrustedScore(t, liveKey, p.insertionId, p.score));
        const [scored, voided] = p.i % 4 < 2 ? await Promise.all([score(), voidIt(p.insertionId)]) : (await Promise.all([voidIt(p.insertionId), score()])).reverse();
        return { ...p, scored, voided };
      }),
    );

    const live = await t.db.query(
      'SELECT count(*)::int AS n FROM scores s JOIN insertion_voids v ON v.insertion_id = s.insertion_id WHERE s.removed_at IS NULL AND s.game_id = $1',
      [raceGame.gameId],
    );
    expect({ voidedWithLiveScore: live.rows[0].n }).toEqual({ voidedWithLiveScore: 0 });
    for (const o of outcomes) {
      expect(o.voided.status).toBe(200);
      const saved = await t.db.query('SELECT removed_at FROM scores WHERE insertion_id = $1', [o.insertionId]);
      if (o.scored.status === 200) {
        expect(o.scored.body).toMatchObject({ saved: true, scoreId: expect.any(String) });
        expect(saved.rows).toEqual([{ removed_at: expect.any(Date) }]);
      } else {
        expect({ status: o.scored.status, body: o.scored.body }).toEqual({ status: 409, body: { error: 'INSERTION_VOIDED', message: expect.any(String) } });
        expect(saved.rows).toEqual([]);
      }
    }
    for (const period of ['all', 'week'] as const) {
      const board = (await getBoard(t, raceGame.slug, period).expect(200)).body.scores as { score: string }[];
      expect(board.map((s) => s.score)).toEqual(['1', '1', '1', '1']);
    }
    expect((await checkInvariants(t.db)).violations).toEqual([]);
  });

  it('returns the coins to a frozen wallet too', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 2);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    await t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin).expect(200);
    expect((await voidIt(insertionId).expect(200)).body.balance).toBe(2);
  });

  it('answers 404 for unknown and test-mode insertions, 400 for bad bodies, 403 to non-admins and other origins', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', `test_${'a'.repeat(32)}`, 'not-an-id']) {
      const res = await voidIt(id).expect(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    await voidIt('x'.repeat(65)).expect(400);
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 2);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    for (const body of [{ reason: '', idempotencyKey: idempotencyKey() }, { reason: 'r'.repeat(201), idempotencyKey: idempotencyKey() }, { reason: 'x' }, { reason: 'x', idempotencyKey: 'bad key!' }, { reason: 'x', idempotencyKey: idempotencyKey(), extra: 1 }]) {
      expect((await voidIt(insertionId, body).expect(400)).body.error).toBe('INVALID_REQUEST');
    }
    expect((await voidIt(insertionId, undefined, player.cookie).expect(403)).body.error).toBe('FORBIDDEN');
    await t.http().post(`/api/admin/insertions/${insertionId}/void`).send({ reason: 'x', idempotencyKey: idempotencyKey() }).expect(401);
    await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).set('Origin', 'https://evil.example').send({ reason: 'x', idempotencyKey: idempotencyKey() }).expect(403);
    expect(await balanceOf(t, player)).toBe(0);
    const verified = await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${liveKey}`).expect(200);
    expect(verified.body.voidedAt).toBeNull();
  });

  it('the database refuses a second void of an insertion, and any change to a void', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 2);
    const { sessionId } = await startSession(t, player, game.slug);
    const insertionId = await insertCoin(t, player, sessionId);
    await voidIt(insertionId).expect(200);
    await expect(t.db.query("UPDATE insertion_voids SET reason = 'changed' WHERE insertion_id = $1", [insertionId])).rejects.toThrow(/keeps its rows/);
    await expect(t.db.query('DELETE FROM insertion_voids WHERE insertion_id = $1', [insertionId])).rejects.toThrow(/keeps its rows/);
    await expect(
      t.db.query(
        `INSERT INTO insertion_voids (insertion_id, ledger_entry_id, developer_id, game_id, coins, gross_mills, earned_mills, reason, voided_by)
         SELECT insertion_id, ledger_entry_id, developer_id, game_id, coins, gross_mills, earned_mills, reason, voided_by FROM insertion_voids WHERE insertion_id = $1`,
        [insertionId],
      ),
    ).rejects.toThrow(/insertion_voids_pkey/);
  });
});
