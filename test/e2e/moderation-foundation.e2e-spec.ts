/**
 * The pieces CONTRACT §18–§19 build on: the append-only audit log and taking a score off the
 * boards. Driven through the services (their endpoints come with the admin console), on real
 * PostgreSQL; the boards are read back through the public API.
 */
import { UnitOfWork } from '../../src/database/unit-of-work';
import { AuditService } from '../../src/modules/audit/audit.service';
import { ScoreModerationService } from '../../src/modules/scoring/score-moderation.service';
import type { TestApp } from '../support/app';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, playAndScore, postInitials } from '../support/play';

describe('moderation foundation', () => {
  let t: TestApp;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await createWorldApp();
    uow = t.app.nest.get(UnitOfWork);
  });
  afterAll(() => t.close());

  describe('audit log', () => {
    it('records an entry inside the transaction, and the database refuses UPDATE, DELETE and TRUNCATE of it', async () => {
      const actor = await signUpVerifiedPlayer(t);
      const audit = t.app.nest.get(AuditService);
      await uow.run(() => audit.record({ actorId: actor.accountId, action: 'user.ban', targetId: actor.accountId, reason: 'test', details: { coins: 3 }, requestId: 'req-1' }));
      const { rows } = await t.db.query('SELECT actor_id, action, target_type, target_id, reason, details, request_id FROM audit_log WHERE actor_id = $1', [actor.accountId]);
      expect(rows).toEqual([{ actor_id: actor.accountId, action: 'user.ban', target_type: 'user', target_id: actor.accountId, reason: 'test', details: { coins: 3 }, request_id: 'req-1' }]);

      await expect(t.db.query("UPDATE audit_log SET reason = 'changed'")).rejects.toThrow(/append-only/);
      await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
      const after = await t.db.query('SELECT reason FROM audit_log WHERE actor_id = $1', [actor.accountId]);
      expect(after.rows).toEqual([{ reason: 'test' }]);
    });

    it('writes nothing when the transaction rolls back', async () => {
      const actor = await signUpVerifiedPlayer(t);
      const audit = t.app.nest.get(AuditService);
      await expect(
        uow.run(async () => {
          await audit.record({ actorId: actor.accountId, action: 'user.unban', targetId: actor.accountId, requestId: null });
          throw new Error('refused later in the use case');
        }),
      ).rejects.toThrow('refused later');
      const { rows } = await t.db.query('SELECT 1 FROM audit_log WHERE actor_id = $1', [actor.accountId]);
      expect(rows).toHaveLength(0);
    });

    it('refuses a record outside a transaction', async () => {
      const actor = await signUpVerifiedPlayer(t);
      await expect(t.app.nest.get(AuditService).record({ actorId: actor.accountId, action: 'user.ban', targetId: actor.accountId, requestId: null })).rejects.toThrow(/inside UnitOfWork.run/);
    });
  });

  describe('score removal', () => {
    it('takes a score off both boards at once, the next best moves up, a repeat answers the first removedAt, the insertion stays', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev);
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 10);
      const low = await playAndScore(t, player, game.slug, 100);
      expect(low.needsInitials).toBe(true);
      expect((await postInitials(t, player, low.sessionId, low.scoreId as string, 'LOW')).status).toBe(200);
      const high = await playAndScore(t, player, game.slug, 900);
      expect(high.initials).toBe('LOW');

      // Read the boards once so this instance caches them: removal must drop the cache too.
      for (const period of ['all', 'week'] as const) expect((await getBoard(t, game.slug, period)).body.scores.map((s: { score: string }) => s.score)).toEqual(['900', '100']);

      const moderation = t.app.nest.get(ScoreModerationService);
      const first = await uow.run(() => moderation.removeScore(high.scoreId as string));
      expect(first).toEqual({ scoreId: high.scoreId, gameId: game.gameId, removedAt: expect.any(Date), changed: true });
      for (const period of ['all', 'week'] as const) {
        const board = await getBoard(t, game.slug, period);
        expect(board.body.scores.map((s: { score: string; rank: number }) => [s.rank, s.score])).toEqual([[1, '100']]);
      }

      const repeat = await uow.run(() => moderation.removeScore(high.scoreId as string));
      expect(repeat).toEqual({ ...first, changed: false });

      const { rows } = await t.db.query('SELECT s.removed_at, i.id AS insertion_id FROM scores s JOIN insertions i ON i.id = s.insertion_id WHERE s.id = $1', [high.scoreId]);
      expect(rows[0].removed_at).toEqual(first!.removedAt);
      expect(rows[0].insertion_id).toBeTruthy();
    });

    it('finds the score of an insertion, and answers undefined for unknown ids and insertions without a score', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev);
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 10);
      const scored = await playAndScore(t, player, game.slug, 50);
      const { rows } = await t.db.query('SELECT insertion_id FROM scores WHERE id = $1', [scored.scoreId]);
      const moderation = t.app.nest.get(ScoreModerationService);
      const removed = await uow.run(() => moderation.removeScoreOfInsertion(rows[0].insertion_id));
      expect(removed).toMatchObject({ scoreId: scored.scoreId, changed: true });
      expect(await uow.run(() => moderation.removeScore('00000000-0000-4000-8000-000000000000'))).toBeUndefined();
      expect(await uow.run(() => moderation.removeScore('not-a-uuid'))).toBeUndefined();
      expect(await uow.run(() => moderation.removeScoreOfInsertion('00000000-0000-4000-8000-000000000000'))).toBeUndefined();
    });

    it('a removed score no longer counts when a new score is placed', async () => {
      const dev = await createDeveloper(t);
      const game = await publishGame(t, dev);
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 30);
      const scores: string[] = [];
      for (let i = 0; i < 10; i++) {
        const played = await playAndScore(t, player, game.slug, 1000 + i);
        if (i === 0) expect((await postInitials(t, player, played.sessionId, played.scoreId as string, 'ABC')).status).toBe(200);
        scores.push(played.scoreId as string);
      }
      // The board is full (1000..1009): a tie with the tenth does not qualify, and is saved 11th.
      expect(await playAndScore(t, player, game.slug, 1000)).toMatchObject({ qualifies: false, rank: null });
      const moderation = t.app.nest.get(ScoreModerationService);
      await uow.run(() => moderation.removeScore(scores[9]!));
      // Without 1009 the board is 1008..1001, 1000, 1000: a new 1001 places after the old one.
      expect(await playAndScore(t, player, game.slug, 1001)).toMatchObject({ qualifies: true, rank: 9 });
    });
  });
});
