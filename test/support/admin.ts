/**
 * The admin console's API as the bootstrap admin: `const admin = await signedInAdmin(t)`, then
 * `admin.get('/api/admin/users', { query: 'ada' })` or `admin.post(path, body)`, each a supertest
 * request (chain `.expect(...)` or await it).
 */
import type { TestApp } from './app';
import { adminCookie } from './factories';

export type Query = Record<string, string | number>;

export interface SignedInAdmin {
  cookie: string;
  get(path: string, query?: Query): ReturnType<ReturnType<TestApp['http']>['get']>;
  post(path: string, body?: object): ReturnType<ReturnType<TestApp['http']>['post']>;
}

export async function signedInAdmin(t: TestApp): Promise<SignedInAdmin> {
  const cookie = await adminCookie(t);
  return {
    cookie,
    get: (path, query = {}) => t.http().get(path).query(query).set('Cookie', cookie),
    post: (path, body) => t.http().post(path).set('Cookie', cookie).send(body),
  };
}

/** Follows `nextCursor` to the end: every item of every page under `key`, and the page sizes. */
export async function walkPages<T>(admin: SignedInAdmin, path: string, key: string, query: Query): Promise<{ items: T[]; sizes: number[] }> {
  const items: T[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await admin.get(path, cursor ? { ...query, cursor } : query);
    if (res.status !== 200) throw new Error(`${path}: expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...(res.body[key] as T[]));
    sizes.push(res.body[key].length);
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  return { items, sizes };
}
