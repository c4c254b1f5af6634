import type { TestApp } from './app';
import { adminCookie } from './factories';

type User = { cookie: string; accountId: string };

/**
 * Every way a login session ends before its cookie is sent again, each applied to one user: a
 * sign-out, a ban through the admin API, and an expiry or revocation made in SQL (which no instance
 * hears of). For the routes that trust a kept login session (PlayerAuth({ sessionCheckedByStatement })).
 */
export function loginSessionEndings(t: TestApp): [string, (who: User) => Promise<unknown>][] {
  return [
    ['sign-out', (who) => t.http().post('/auth/logout').set('Cookie', who.cookie).expect(204)],
    ['ban', async (who) => t.http().post(`/api/admin/users/${who.accountId}/ban`).set('Cookie', await adminCookie(t)).send({ reason: 'Cheating.' }).expect(200)],
    ['expiry in SQL', (who) => t.db.query("UPDATE login_sessions SET expires_at = now() - interval '1 second' WHERE account_id = $1", [who.accountId])],
    ['revocation in SQL', (who) => t.db.query('UPDATE login_sessions SET revoked_at = now() WHERE account_id = $1', [who.accountId])],
  ];
}
