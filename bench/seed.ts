import { ApiError, Caller, freshKey, mapLimit } from './client';

/** Admin credentials the bench gives the service (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = { email: 'bench-admin@bench.invalid', password: 'bench-admin-password' };

/** Largest admin credit in one call (CONTRACT §4). */
const MAX_CREDIT = 100_000;

export interface Player {
  userId: string;
  caller: Caller;
  /** The bare `auth_session=...` cookie, for the load generator. */
  cookie: string;
}

export interface Game {
  gameId: string;
  slug: string;
  versionId: string;
}

export interface PlaySession {
  sessionId: string;
  cookie: string;
}

export interface World {
  admin: Caller;
  developer: Caller;
  liveKey: string;
  main: Game;
}

/** Parallel requests while seeding: enough to keep the service busy, few enough to stay polite. */
const SEED_CONCURRENCY = 8;

async function adminCaller(baseUrl: string): Promise<Caller> {
  const admin = new Caller(baseUrl);
  await admin.post('/auth/login', ADMIN);
  return admin;
}

export async function signUpVerified(baseUrl: string, admin: Caller, tag: string, options: { linkPlayer?: boolean } = {}): Promise<Player> {
  const caller = new Caller(baseUrl);
  const signUp = (email: string) =>
    caller.post<{ user: { id: string } }>('/auth/signup', { email, password: 'bench-password-1', displayName: tag.slice(0, 32), linkPlayer: options.linkPlayer ?? true });
  // A sign-up retried after a 503 may have gone through the first time: then a second address.
  const { user } = await signUp(`${tag}@bench.invalid`).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 409) return signUp(`${tag}.again@bench.invalid`);
    throw error;
  });
  await admin.post(`/api/admin/users/${user.id}/verify-email`);
  return { userId: user.id, caller, cookie: caller.cookie! };
}

/** Credits `coins` in admin credits of at most 100,000 (each its own idempotency key). */
export async function credit(admin: Caller, userId: string, coins: number): Promise<void> {
  for (let left = coins; left > 0; left -= MAX_CREDIT) {
    await admin.post(`/api/admin/wallets/${userId}/credits`, { coins: Math.min(left, MAX_CREDIT), reason: 'bench credit', idempotencyKey: freshKey('credit') });
  }
}

export async function publishGame(developer: Caller, admin: Caller, slug: string): Promise<Game> {
  const game = await developer.post<{ gameId: string }>('/api/portal/games', { slug, title: `Bench ${slug}`, coinsPerCredit: 1 });
  const version = await developer.post<{ versionId: string }>(`/api/portal/games/${game.gameId}/versions`, { label: 'v1', entryUrl: '/bench-game/index.html' });
  await admin.post(`/api/admin/versions/${version.versionId}/approve`);
  await developer.post(`/api/portal/games/${game.gameId}/publish`, { versionId: version.versionId });
  return { gameId: game.gameId, slug, versionId: version.versionId };
}

/** Admin, a developer with a live key, and the main game every play scenario uses. */
export async function seedWorld(baseUrl: string): Promise<World> {
  const admin = await adminCaller(baseUrl);
  const dev = await signUpVerified(baseUrl, admin, 'bench-developer', { linkPlayer: false });
  await dev.caller.post('/api/portal/developer', { displayName: 'Bench Developer' });
  const { key } = await dev.caller.post<{ key: string }>('/api/portal/keys', { kind: 'live', name: 'bench' });
  const main = await publishGame(dev.caller, admin, 'bench-main');
  return { admin, developer: dev.caller, liveKey: key, main };
}

/** `count` verified players, each holding `coins`. */
export async function seedPlayers(baseUrl: string, admin: Caller, prefix: string, count: number, coins: number): Promise<Player[]> {
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    // Password hashing runs on libuv's 4 threads: more sign-ups in flight only queue there.
    4,
    async (i) => {
      const player = await signUpVerified(baseUrl, admin, `${prefix}-${i}`);
      await credit(admin, player.userId, coins);
      return player;
    },
  );
}

/** Gives every player a saved initials preference, so each later score lands on the board at once (§16.8). */
export async function saveInitials(players: Player[], game: Game): Promise<void> {
  await mapLimit(players, SEED_CONCURRENCY, async (player, i) => {
    const { sessionId } = await player.caller.post<{ sessionId: string }>('/api/play/sessions', { gameSlug: game.slug });
    await player.caller.post(`/api/play/sessions/${sessionId}/insert-coin`, { idempotencyKey: freshKey('init') });
    const score = await player.caller.post<{ scoreId: string }>(`/api/play/sessions/${sessionId}/score`, { score: 1000 + i, idempotencyKey: freshKey('init') });
    await player.caller.post(`/api/play/sessions/${sessionId}/score/initials`, { scoreId: score.scoreId, initials: initialsFor(i) });
  });
}

export function initialsFor(i: number): string {
  const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return a[i % 26] + a[Math.floor(i / 26) % 26] + a[Math.floor(i / 676) % 26];
}

/**
 * `count` play sessions on `game`, dealt round-robin over `players` so that consecutive sessions
 * belong to different players (and wallets).
 */
export async function openSessions(players: Player[], game: Game, count: number): Promise<PlaySession[]> {
  return mapLimit(
    Array.from({ length: count }, (_, i) => players[i % players.length]),
    SEED_CONCURRENCY,
    async (player) => {
      const { sessionId } = await player.caller.post<{ sessionId: string }>('/api/play/sessions', { gameSlug: game.slug });
      return { sessionId, cookie: player.cookie };
    },
  );
}

/** One paid insertion in each session (through insert-coin); returns the insertion ids. */
export async function insertOneCoinEach(sessions: PlaySession[], baseUrl: string): Promise<string[]> {
  return mapLimit(sessions, SEED_CONCURRENCY, async (s) => {
    const caller = new Caller(baseUrl, s.cookie);
    const { insertionId } = await caller.post<{ insertionId: string }>(`/api/play/sessions/${s.sessionId}/insert-coin`, { idempotencyKey: freshKey('seed') });
    return insertionId;
  });
}

export interface PagesWorld {
  /** A developer with 20 games (half published, each with versions and achievements) and earnings on them. */
  developer: Player;
  /** A player with more than a page of wallet history and achievements unlocked across games. */
  player: Player;
}

/**
 * The world the page rows measure (issue 17: "a developer of 20 games"): each game has a version
 * (every other one approved and published) and three achievements; the player plays each published
 * game three times (60 coins inserted, 61 ledger entries with the credit) and unlocks one
 * achievement in each.
 */
export async function seedPagesWorld(baseUrl: string, admin: Caller): Promise<PagesWorld> {
  const developer = await signUpVerified(baseUrl, admin, 'pages-developer', { linkPlayer: false });
  await developer.caller.post('/api/portal/developer', { displayName: 'Twenty Games Studio' });
  const games = await mapLimit(Array.from({ length: 20 }, (_, i) => i), 4, async (i) => {
    const slug = `pages-game-${i}`;
    const game = await developer.caller.post<{ gameId: string }>('/api/portal/games', { slug, title: `Pages Game ${i}`, coinsPerCredit: 1 + (i % 5) });
    const version = await developer.caller.post<{ versionId: string }>(`/api/portal/games/${game.gameId}/versions`, { label: '1.0.0', entryUrl: '/bench-game/index.html' });
    for (const key of ['first', 'second', 'third']) {
      await developer.caller.post(`/api/portal/games/${game.gameId}/achievements`, { key, name: `${key} steps`, description: 'Play once.', iconKey: 'star' });
    }
    if (i % 2 === 1) return undefined;
    await admin.post(`/api/admin/versions/${version.versionId}/approve`);
    await developer.caller.post(`/api/portal/games/${game.gameId}/publish`, { versionId: version.versionId });
    return slug;
  });
  const player = await signUpVerified(baseUrl, admin, 'pages-player');
  await credit(admin, player.userId, 1_000);
  const published = games.filter((slug): slug is string => slug !== undefined);
  await mapLimit(published, 2, async (slug) => {
    for (let round = 0; round < 6; round++) {
      const { sessionId } = await player.caller.post<{ sessionId: string }>('/api/play/sessions', { gameSlug: slug });
      await player.caller.post(`/api/play/sessions/${sessionId}/insert-coin`, { idempotencyKey: freshKey('pages') });
      if (round === 0) await player.caller.post(`/api/v1/sessions/${sessionId}/achievements`, { key: 'first' });
    }
  });
  return { developer, player };
}
