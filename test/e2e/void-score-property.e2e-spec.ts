/**
 * Property (fast-check), CONTRACT §19.1: whatever the interleaving of voids and scores (player and
 * trusted, repeats on one insertion) — the steps of a batch sent at the same moment — a voided
 * insertion keeps no score on any board, each score answer is 200 or a 409 that matches what
 * happened, and every money invariant holds after every run.
 */
import fc from 'fast-check';
import { checkInvariants } from '../../src/ops/invariants';
import type { TestApp } from '../support/app';
import { adminCookie, createApiKey, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, idempotencyKey, paidSession, postInitials, postScore, postTrustedScore } from '../support/play';

type Step = { kind: 'playerScore' | 'trustedScore' | 'void'; insertion: number };

const INSERTIONS = 3;

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Step['kind']>('playerScore', 'trustedScore', 'void'),
  insertion: fc.nat({ max: INSERTIONS - 1 }),
});

/** Batches of steps: the steps of one batch are sent at once. */
const scenario = fc.array(fc.array(step, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 });

describe('void/score property: a voided insertion never keeps a score, whatever the interleaving', () => {
  let t: TestApp;
  let admin: string;
  let liveKey: string;
  let slug: string;
  let nextScore = 10_000_000;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await adminCookie(t);
    const dev = await createDeveloper(t);
    slug = (await publishGame(t, dev, { coinsPerCredit: 1 })).slug;
    liveKey = (await createApiKey(t, dev, 'live')).key;
  });
  afterAll(() => t.close());

  it('holds for generated scenarios, the invariants checked after every run', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (batches) => {
        const player = await signUpVerifiedPlayer(t);
        await fundPlayer(t, player, INSERTIONS + 1);
        // Saved initials: every later score stands on the public boards at once (§16.8).
        const first = await paidSession(t, player, slug);
        const firstScore = await postScore(t, player, first.sessionId, 1).expect(200);
        await postInitials(t, player, first.sessionId, firstScore.body.scoreId, 'PRO').expect(200);
        const insertions = await Promise.all(Array.from({ length: INSERTIONS }, () => paidSession(t, player, slug)));

        const voided = new Set<number>();
        const answers: { insertion: number; score: string; status: number; error?: string }[] = [];
        const run = async (s: Step): Promise<void> => {
          const { sessionId, insertionId } = insertions[s.insertion]!;
          if (s.kind === 'void') {
            const res = await t.http().post(`/api/admin/insertions/${insertionId}/void`).set('Cookie', admin).send({ reason: 'property', idempotencyKey: idempotencyKey('pvoid') });
            expect(res.status).toBe(200);
            voided.add(s.insertion);
            return;
          }
          const score = nextScore++;
          const res = s.kind === 'playerScore' ? await postScore(t, player, sessionId, score) : await postTrustedScore(t, liveKey, insertionId, score);
          answers.push({ insertion: s.insertion, score: String(score), status: res.status, error: res.body.error });
        };
        for (const batch of batches) await Promise.all(batch.map(run));

        const { rows } = await t.db.query<{ insertion_id: string; score: string; removed: boolean }>(
          'SELECT insertion_id, score::text AS score, removed_at IS NOT NULL AS removed FROM scores WHERE insertion_id = ANY($1)',
          [insertions.map((i) => i.insertionId)],
        );
        for (const [index, { insertionId }] of insertions.entries()) {
          const saved = rows.filter((r) => r.insertion_id === insertionId);
          const mine = answers.filter((a) => a.insertion === index);
          // One score per insertion: the one answered 200, if any; off the boards once voided.
          expect(saved.map((r) => r.score)).toEqual(mine.filter((a) => a.status === 200).map((a) => a.score));
          if (voided.has(index)) expect(saved.every((r) => r.removed)).toBe(true);
          for (const a of mine.filter((x) => x.status !== 200)) {
            expect({ status: a.status, error: a.error }).toEqual({ status: 409, error: expect.stringMatching(/^(INSERTION_VOIDED|INSERTION_ALREADY_SCORED)$/) });
            if (a.error === 'INSERTION_VOIDED') expect(voided.has(index)).toBe(true);
            if (a.error === 'INSERTION_ALREADY_SCORED') expect(saved).toHaveLength(1);
          }
        }
        const voidedScores = new Set(rows.filter((r) => voided.has(insertions.findIndex((i) => i.insertionId === r.insertion_id))).map((r) => r.score));
        for (const period of ['all', 'week'] as const) {
          const board = (await getBoard(t, slug, period).expect(200)).body.scores as { score: string }[];
          expect(board.filter((entry) => voidedScores.has(entry.score))).toEqual([]);
        }
        expect((await checkInvariants(t.db)).violations).toEqual([]);
      }),
      { numRuns: 15 },
    );
  }, 300_000);
});
