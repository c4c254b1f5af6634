/**
 * A small but complete world for fuzz, security and fault tests, built through the public API:
 * two developers (each with a published game, an achievement, a live and a test key), two funded
 * players, each with a play session holding a paid, scored insertion.
 */
import type { TestApp } from './app';
import { adminCookie, createAchievement, createApiKey, createDeveloper, Developer, logIn, publishGame, signUpVerifiedPlayer, SignedUpUser } from './factories';
import { fundPlayer, idempotencyKey, paidSession, postScore } from './play';

export interface WorldStudio {
  dev: Developer;
  game: { gameId: string; slug: string; versionId: string };
  achievementKey: string;
  liveKey: { id: string; key: string };
  testKey: { id: string; key: string };
}

export interface WorldPlayer {
  user: SignedUpUser & { playerId: string };
  sessionId: string;
  insertionId: string;
  scoreId: string;
}

export interface World {
  studios: [WorldStudio, WorldStudio];
  players: [WorldPlayer, WorldPlayer];
  admin: { cookie: string };
  /** Every id the world holds, for generators that mix real ids into path parameters. */
  ids: string[];
}

async function studio(t: TestApp, name: string): Promise<WorldStudio> {
  const dev = await createDeveloper(t, { displayName: name });
  const game = await publishGame(t, dev, { coinsPerCredit: 2 });
  const { key: achievementKey } = await createAchievement(t, dev, game.gameId);
  return { dev, game, achievementKey, liveKey: await createApiKey(t, dev, 'live'), testKey: await createApiKey(t, dev, 'test') };
}

async function player(t: TestApp, slug: string, coins: number): Promise<WorldPlayer> {
  const user = await signUpVerifiedPlayer(t);
  await fundPlayer(t, user, coins);
  const { sessionId, insertionId } = await paidSession(t, user, slug);
  const score = await postScore(t, user, sessionId, 1234, idempotencyKey('world'));
  if (score.status !== 200) throw new Error(`world score: ${score.status} ${JSON.stringify(score.body)}`);
  return { user, sessionId, insertionId, scoreId: score.body.scoreId };
}

export async function buildWorld(t: TestApp, options: { coins?: number } = {}): Promise<World> {
  const studios: [WorldStudio, WorldStudio] = [await studio(t, 'Studio A'), await studio(t, 'Studio B')];
  const players: [WorldPlayer, WorldPlayer] = [
    await player(t, studios[0].game.slug, options.coins ?? 200),
    await player(t, studios[1].game.slug, options.coins ?? 200),
  ];
  const ids = [
    ...studios.flatMap((s) => [s.game.gameId, s.game.slug, s.game.versionId, s.achievementKey, s.liveKey.id, s.testKey.id, s.dev.accountId]),
    ...players.flatMap((p) => [p.sessionId, p.insertionId, p.scoreId, p.user.accountId]),
  ];
  return { studios, players, admin: { cookie: await adminCookie(t) }, ids };
}

/** Signs the user in again (after a generated request signed it out). */
export async function refreshCookie(t: TestApp, user: { email: string; password: string; cookie: string }): Promise<void> {
  user.cookie = await logIn(t, user.email, user.password);
}
