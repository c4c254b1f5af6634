/**
 * Builds the world through the public API, the way users do: sign-up, admin verification,
 * developer portal, admin review, publishing, API keys. Use with an app from `createWorldApp()`
 * (it knows the admin's credentials). Cookies come back as strings for `.set('Cookie', cookie)`.
 * Tests read the database only to assert (and to learn ids the API does not show, e.g. playerId).
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from './app';

export const ADMIN_EMAIL = 'admin@arcade.test';
export const ADMIN_PASSWORD = 'admin-password-for-tests';
export const DEFAULT_PASSWORD = 'player-password-1';

/** createTestApp with ADMIN_EMAIL / ADMIN_PASSWORD set, so `adminCookie()` and verification work. */
export function createWorldApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  return createTestApp({ ...options, env: { ADMIN_EMAIL, ADMIN_PASSWORD, ...options.env } });
}

let sequence = 0;
/** A name no other test (or worker) uses: `prefix-<n>-<random>`. */
export function unique(prefix = 'x'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${randomBytes(3).toString('hex')}`;
}

export function uniqueEmail(prefix = 'player'): string {
  return `${unique(prefix)}@example.test`;
}

/** The `auth_session=…` pair of a response's Set-Cookie, ready for `.set('Cookie', …)`. */
export function authCookieOf(res: Response): string {
  const header = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const cookie = cookies.find((c) => c.startsWith('auth_session='));
  if (!cookie) throw new Error(`No auth_session cookie in the answer (status ${res.status}): ${JSON.stringify(res.body)}`);
  return cookie.split(';')[0]!;
}

function expectStatus(res: Response, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

export async function logIn(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.http().post('/auth/login').send({ email, password });
  expectStatus(res, 200, `login ${email}`);
  return authCookieOf(res);
}

const adminCookies = new WeakMap<TestApp, Promise<string>>();
/** The bootstrap admin's cookie (one login per app). */
export function adminCookie(t: TestApp): Promise<string> {
  let cookie = adminCookies.get(t);
  if (!cookie) {
    cookie = logIn(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    adminCookies.set(t, cookie);
  }
  return cookie;
}

export interface SignedUpUser {
  accountId: string;
  email: string;
  password: string;
  displayName: string;
  cookie: string;
  /** Set when linked. */
  playerId?: string;
}

/**
 * Signs a player up through POST /auth/signup. Defaults: linked (as the API), NOT verified;
 * `verified: true` has the admin verify the e-mail.
 */
export async function signUpPlayer(
  t: TestApp,
  options: { verified?: boolean; linked?: boolean; email?: string; password?: string; displayName?: string } = {},
): Promise<SignedUpUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? DEFAULT_PASSWORD;
  const displayName = options.displayName ?? 'Player';
  const res = await t.http().post('/auth/signup').send({ email, password, displayName, linkPlayer: options.linked ?? true });
  expectStatus(res, 201, `signup ${email}`);
  const user: SignedUpUser = { accountId: res.body.user.id, email, password, displayName, cookie: authCookieOf(res) };
  if (options.verified) await verifyEmail(t, user.accountId);
  if (options.linked ?? true) {
    const row = await t.db.query<{ id: string }>('SELECT id FROM players WHERE account_id = $1', [user.accountId]);
    user.playerId = row.rows[0]!.id;
  }
  return user;
}

/** A verified, linked player: ready to play. */
export function signUpVerifiedPlayer(t: TestApp, options: { email?: string; password?: string; displayName?: string } = {}): Promise<SignedUpUser & { playerId: string }> {
  return signUpPlayer(t, { ...options, verified: true, linked: true }) as Promise<SignedUpUser & { playerId: string }>;
}

export async function verifyEmail(t: TestApp, accountId: string): Promise<void> {
  const res = await t.http().post(`/api/admin/users/${accountId}/verify-email`).set('Cookie', await adminCookie(t));
  expectStatus(res, 200, 'admin verify-email');
}

export interface Developer extends SignedUpUser {
  developerId: string;
}

/** A verified account (linked player too) with role developer. */
export async function createDeveloper(t: TestApp, options: { displayName?: string } = {}): Promise<Developer> {
  const user = await signUpPlayer(t, { verified: true, linked: true, email: uniqueEmail('dev'), displayName: options.displayName ?? 'Dev' });
  const res = await t.http().post('/api/portal/developer').set('Cookie', user.cookie).send({ displayName: options.displayName ?? 'Dev Studio' });
  expectStatus(res, 201, 'become developer');
  return { ...user, developerId: res.body.developerId };
}

export interface CreatedGame {
  gameId: string;
  slug: string;
  versionId: string;
}

/** Creates a game and a version (no review, no publishing). */
export async function createGame(
  t: TestApp,
  dev: { cookie: string },
  options: { coinsPerCredit?: number; maxScore?: number; slug?: string; title?: string; entryUrl?: string } = {},
): Promise<CreatedGame> {
  const slug = options.slug ?? unique('game');
  const game = await t
    .http()
    .post('/api/portal/games')
    .set('Cookie', dev.cookie)
    .send({ slug, title: options.title ?? `Game ${slug}`, coinsPerCredit: options.coinsPerCredit ?? 1, ...(options.maxScore !== undefined ? { maxScore: options.maxScore } : {}) });
  expectStatus(game, 201, 'create game');
  const version = await t
    .http()
    .post(`/api/portal/games/${game.body.gameId}/versions`)
    .set('Cookie', dev.cookie)
    .send({ label: '1.0.0', entryUrl: options.entryUrl ?? 'https://games.example.test/index.html' });
  expectStatus(version, 201, 'create version');
  return { gameId: game.body.gameId, slug, versionId: version.body.versionId };
}

/** Creates a game and a version, has the admin approve it, and publishes it. */
export async function publishGame(
  t: TestApp,
  dev: { cookie: string },
  options: { coinsPerCredit?: number; maxScore?: number; slug?: string; title?: string; entryUrl?: string } = {},
): Promise<CreatedGame> {
  const game = await createGame(t, dev, options);
  const approve = await t.http().post(`/api/admin/versions/${game.versionId}/approve`).set('Cookie', await adminCookie(t));
  expectStatus(approve, 200, 'approve version');
  const publish = await t.http().post(`/api/portal/games/${game.gameId}/publish`).set('Cookie', dev.cookie).send({ versionId: game.versionId });
  expectStatus(publish, 200, 'publish game');
  return game;
}

/** Creates an API key; `key` is the full secret. */
export async function createApiKey(t: TestApp, dev: { cookie: string }, kind: 'live' | 'test' = 'live', name = 'backend'): Promise<{ id: string; key: string }> {
  const res = await t.http().post('/api/portal/keys').set('Cookie', dev.cookie).send({ kind, name });
  expectStatus(res, 201, 'create api key');
  return { id: res.body.id, key: res.body.key };
}

/** Defines an achievement on a game. */
export async function createAchievement(
  t: TestApp,
  dev: { cookie: string },
  gameId: string,
  options: { key?: string; name?: string; description?: string; iconKey?: string; secret?: boolean } = {},
): Promise<{ key: string }> {
  const key = options.key ?? unique('ach').replace(/[^a-z0-9_-]/g, '');
  const res = await t
    .http()
    .post(`/api/portal/games/${gameId}/achievements`)
    .set('Cookie', dev.cookie)
    .send({ key, name: options.name ?? 'First steps', description: options.description ?? 'Play once.', iconKey: options.iconKey ?? 'trophy', secret: options.secret ?? false });
  expectStatus(res, 201, 'create achievement');
  return { key };
}
