import type { TestApp } from '../support/app';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, getBoard, paidSession, postInitials, postScore } from '../support/play';

/**
 * Two instances on one database: a board cached by one instance shows a score saved through the
 * other within one second (each instance caches a board for at most 500 ms).
 */
describe('leaderboard cache across instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createWorldApp();
    b = await createWorldApp({ databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('shows a new qualifying score on the other instance after one second', async () => {
    const dev = await createDeveloper(a);
    const game = await publishGame(a, dev);
    const player = await signUpVerifiedPlayer(a);
    await fundPlayer(a, player, 5);
    const first = await paidSession(a, player, game.slug);
    const opener = await postScore(a, player, first.sessionId, 10).expect(200);
    await postInitials(a, player, first.sessionId, opener.body.scoreId, 'ONE').expect(200);

    // Instance B caches the board with one entry.
    expect((await getBoard(b, game.slug).expect(200)).body.scores).toHaveLength(1);
    const second = await paidSession(a, player, game.slug);
    await postScore(a, player, second.sessionId, 20).expect(200);
    // Instance A dropped its cached board at once.
    expect((await getBoard(a, game.slug).expect(200)).body.scores.map((e: { score: string }) => e.score)).toEqual(['20', '10']);

    await new Promise((r) => setTimeout(r, 1000));
    expect((await getBoard(b, game.slug).expect(200)).body.scores.map((e: { score: string }) => e.score)).toEqual(['20', '10']);
  });
});
