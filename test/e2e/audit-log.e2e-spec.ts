/**
 * The audit log (CONTRACT §18): one entry per admin action and per listed developer action,
 * written with the change and the answer's request id; none for a replay, a repeat that changes
 * nothing or a refused request; GET /api/admin/audit with filters and paging; rows the database
 * refuses to change.
 */
import type { Response } from 'supertest';
import type { TestApp } from '../support/app';
import { SignedInAdmin, signedInAdmin, walkPages } from '../support/admin';
import { ADMIN_EMAIL, createDeveloper, createGame, createWorldApp, Developer, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey } from '../support/play';

interface Entry {
  id: string;
  at: string;
  actorId: string;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  details: Record<string, unknown>;
  requestId: string | null;
}

describe('audit log', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let adminId: string;
  let dev: Developer;

  const count = async () => Number((await t.db.query('SELECT count(*) AS n FROM audit_log')).rows[0].n);
  const entriesAbout = async (targetId: string): Promise<Entry[]> => (await admin.get('/api/admin/audit', { targetId }).expect(200)).body.entries;
  /** The one new entry an answer made, as the API lists it, with the answer's request id. */
  const onlyEntry = async (res: Response, targetId: string): Promise<Entry> => {
    const entries = await entriesAbout(targetId);
    const mine = entries.filter((e) => e.requestId === res.headers['x-request-id']);
    expect(mine).toHaveLength(1);
    return mine[0]!;
  };
  const devPost = (path: string, body?: object) => t.http().post(path).set('Cookie', dev.cookie).send(body);

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    adminId = (await t.http().get('/api/me').set('Cookie', admin.cookie).expect(200)).body.id;
    dev = await createDeveloper(t, { displayName: 'Audited Studio' });
  });
  afterAll(async () => t.close());

  it('records each admin action once, with actor, target, reason, details and the request id; repeats and replays record nothing', async () => {
    const player = await signUpPlayer(t, { displayName: 'Audited' });
    const base = { actorId: adminId, actorEmail: ADMIN_EMAIL, id: expect.stringMatching(/^[0-9]+$/), at: expect.any(String) };

    const verify = await admin.post(`/api/admin/users/${player.accountId}/verify-email`).set('X-Request-Id', 'req-verify-1').expect(200);
    expect(await onlyEntry(verify, player.accountId)).toEqual({ ...base, action: 'user.verify_email', targetType: 'user', targetId: player.accountId, reason: null, details: {}, requestId: 'req-verify-1' });
    const before = await count();
    await admin.post(`/api/admin/users/${player.accountId}/verify-email`).expect(200);
    expect(await count()).toBe(before);

    const key = idempotencyKey('credit');
    const credit = await admin.post(`/api/admin/wallets/${player.accountId}/credits`, { coins: 25, reason: 'Goodwill', idempotencyKey: key }).expect(201);
    expect(await onlyEntry(credit, player.accountId)).toEqual({
      ...base,
      action: 'wallet.credit',
      targetType: 'user',
      targetId: player.accountId,
      reason: 'Goodwill',
      details: { coins: 25, entryId: credit.body.entryId },
      requestId: credit.headers['x-request-id'],
    });
    const replay = await admin.post(`/api/admin/wallets/${player.accountId}/credits`, { coins: 25, reason: 'Goodwill', idempotencyKey: key }).expect(200);
    expect(replay.body.replayed).toBe(true);
    const ban = await admin.post(`/api/admin/users/${player.accountId}/ban`, { reason: 'Chargeback fraud.' }).expect(200);
    expect(await onlyEntry(ban, player.accountId)).toMatchObject({ action: 'user.ban', reason: 'Chargeback fraud.' });
    const unban = await admin.post(`/api/admin/users/${player.accountId}/unban`).expect(200);
    expect(await onlyEntry(unban, player.accountId)).toMatchObject({ action: 'user.unban', reason: null });
    expect((await entriesAbout(player.accountId)).map((e) => e.action)).toEqual(['user.unban', 'user.ban', 'wallet.credit', 'user.verify_email']);

    const game = await createGame(t, dev);
    const approve = await admin.post(`/api/admin/versions/${game.versionId}/approve`).expect(200);
    expect(await onlyEntry(approve, game.versionId)).toEqual({
      ...base,
      action: 'version.approve',
      targetType: 'version',
      targetId: game.versionId,
      reason: null,
      details: { gameId: game.gameId },
      requestId: approve.headers['x-request-id'],
    });
    await admin.post(`/api/admin/versions/${game.versionId}/approve`).expect(200);
    const reject = await admin.post(`/api/admin/versions/${game.versionId}/reject`, { reason: 'Crashes on start.' }).expect(200);
    expect(await onlyEntry(reject, game.versionId)).toMatchObject({ action: 'version.reject', reason: 'Crashes on start.', details: { gameId: game.gameId } });
    await admin.post(`/api/admin/versions/${game.versionId}/reject`, { reason: 'Crashes on start.' }).expect(200);
    expect((await entriesAbout(game.versionId)).map((e) => e.action)).toEqual(['version.reject', 'version.approve', 'version.add']);

    const suspend = await admin.post(`/api/admin/games/${game.gameId}/suspend`).expect(200);
    expect(await onlyEntry(suspend, game.gameId)).toMatchObject({ action: 'game.suspend', targetType: 'game', details: { previousStatus: 'unpublished' } });
    await admin.post(`/api/admin/games/${game.gameId}/suspend`).expect(200);
    const unsuspend = await admin.post(`/api/admin/games/${game.gameId}/unsuspend`).expect(200);
    expect(await onlyEntry(unsuspend, game.gameId)).toMatchObject({ action: 'game.unsuspend', targetType: 'game' });
    await admin.post(`/api/admin/games/${game.gameId}/unsuspend`).expect(200);
    expect((await entriesAbout(game.gameId)).map((e) => e.action)).toEqual(['game.unsuspend', 'game.suspend']);
  });

  it('records the developer actions: version added, game published and unpublished, key created and revoked; repeats record nothing', async () => {
    const base = { actorId: dev.accountId, actorEmail: dev.email, id: expect.any(String), at: expect.any(String), reason: null };
    const created = await devPost('/api/portal/games', { slug: `audited-${Date.now()}`, title: 'Audited', coinsPerCredit: 1 }).expect(201);
    const gameId = created.body.gameId;
    const added = await devPost(`/api/portal/games/${gameId}/versions`, { label: '2.0', entryUrl: '/games/audited/index.html' }).expect(201);
    const versionId = added.body.versionId;
    expect(await onlyEntry(added, versionId)).toEqual({
      ...base,
      action: 'version.add',
      targetType: 'version',
      targetId: versionId,
      details: { gameId, label: '2.0', entryUrl: '/games/audited/index.html' },
      requestId: added.headers['x-request-id'],
    });

    await admin.post(`/api/admin/versions/${versionId}/approve`).expect(200);
    const publish = await devPost(`/api/portal/games/${gameId}/publish`, { versionId }).expect(200);
    expect(await onlyEntry(publish, gameId)).toEqual({ ...base, action: 'game.publish', targetType: 'game', targetId: gameId, details: { versionId }, requestId: publish.headers['x-request-id'] });
    const before = await count();
    await devPost(`/api/portal/games/${gameId}/publish`, { versionId }).expect(200);
    expect(await count()).toBe(before);
    const unpublish = await devPost(`/api/portal/games/${gameId}/unpublish`).expect(200);
    expect(await onlyEntry(unpublish, gameId)).toEqual({ ...base, action: 'game.unpublish', targetType: 'game', targetId: gameId, details: {}, requestId: unpublish.headers['x-request-id'] });
    await devPost(`/api/portal/games/${gameId}/unpublish`).expect(200);
    expect((await entriesAbout(gameId)).map((e) => e.action)).toEqual(['game.unpublish', 'game.publish']);

    const key = await devPost('/api/portal/keys', { kind: 'live', name: 'Backend' }).expect(201);
    const keyEntry = await onlyEntry(key, key.body.id);
    expect(keyEntry).toEqual({ ...base, action: 'key.create', targetType: 'key', targetId: key.body.id, details: { kind: 'live', name: 'Backend', prefix: key.body.prefix }, requestId: key.headers['x-request-id'] });
    // Never the secret: not in details, nowhere in the row.
    const raw = await t.db.query('SELECT count(*)::int AS n FROM audit_log WHERE audit_log::text LIKE $1', [`%${key.body.key.slice(12)}%`]);
    expect(raw.rows[0].n).toBe(0);
    const revoke = await t.http().delete(`/api/portal/keys/${key.body.id}`).set('Cookie', dev.cookie).expect(204);
    expect(await onlyEntry(revoke, key.body.id)).toMatchObject({ action: 'key.revoke', targetType: 'key', details: {} });
    await t.http().delete(`/api/portal/keys/${key.body.id}`).set('Cookie', dev.cookie).expect(204);
    expect((await entriesAbout(key.body.id)).map((e) => e.action)).toEqual(['key.revoke', 'key.create']);
  });

  it('records nothing for refused requests', async () => {
    const other = await createDeveloper(t);
    const game = await createGame(t, dev);
    const player = await signUpVerifiedPlayer(t);
    const before = await count();
    const refused: [() => ReturnType<typeof devPost>, number][] = [
      [() => devPost(`/api/portal/games/${game.gameId}/publish`, { versionId: game.versionId }), 409],
      [() => t.http().post(`/api/portal/games/${game.gameId}/versions`).set('Cookie', other.cookie).send({ label: 'x', entryUrl: '/x' }), 404],
      [() => devPost(`/api/portal/games/${game.gameId}/versions`, { label: '', entryUrl: '/x' }), 400],
      [() => devPost('/api/portal/keys', { kind: 'gold', name: 'x' }), 400],
      [() => t.http().delete('/api/portal/keys/00000000-0000-4000-8000-000000000000').set('Cookie', dev.cookie), 404],
      [() => devPost(`/api/admin/versions/${game.versionId}/approve`), 403],
      [() => t.http().post(`/api/admin/games/${game.gameId}/suspend`).set('Cookie', admin.cookie).set('Origin', 'https://evil.example'), 403],
      [() => admin.post('/api/admin/games/00000000-0000-4000-8000-000000000000/suspend'), 404],
      [() => admin.post(`/api/admin/wallets/${dev.developerId}/credits`, { coins: 1, reason: 'x', idempotencyKey: idempotencyKey() }), 404],
      [() => admin.post(`/api/admin/wallets/${player.accountId}/credits`, { coins: 0, reason: 'x', idempotencyKey: idempotencyKey() }), 400],
      [() => admin.post(`/api/admin/versions/${game.versionId}/reject`, { reason: 'x'.repeat(201) }), 400],
    ];
    for (const [send, status] of refused) expect((await send()).status).toBe(status);
    expect(await count()).toBe(before);
  });

  describe('GET /api/admin/audit', () => {
    it('lists newest first with actorEmail, filters by actorId and targetId, and pages with cursors', async () => {
      const studio = await createDeveloper(t);
      const game = await createGame(t, studio);
      const player = await signUpVerifiedPlayer(t);
      await fundPlayer(t, player, 3);

      const all = await walkPages<Entry>(admin, '/api/admin/audit', 'entries', { limit: 7 });
      expect(all.items.length).toBe(await count());
      expect(all.sizes.slice(0, -1).every((n) => n === 7)).toBe(true);
      const ids = all.items.map((e) => BigInt(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
      expect(new Set(ids).size).toBe(ids.length);

      const first = (await admin.get('/api/admin/audit').expect(200)).body;
      expect(first.entries.length).toBe(Math.min(50, all.items.length));
      expect(first.entries.slice(0, 7)).toEqual(all.items.slice(0, 7));

      const byStudio = (await admin.get('/api/admin/audit', { actorId: studio.accountId }).expect(200)).body.entries as Entry[];
      expect(byStudio.map((e) => [e.action, e.targetId, e.actorEmail])).toEqual([['version.add', game.versionId, studio.email]]);
      const byAdmin = await walkPages<Entry>(admin, '/api/admin/audit', 'entries', { actorId: adminId, limit: 5 });
      expect(byAdmin.items.length).toBeGreaterThan(5);
      expect(byAdmin.items.every((e) => e.actorId === adminId && e.actorEmail === ADMIN_EMAIL)).toBe(true);
      expect(byAdmin.items).toEqual(all.items.filter((e) => e.actorId === adminId));

      const aboutPlayer = (await admin.get('/api/admin/audit', { targetId: player.accountId }).expect(200)).body.entries as Entry[];
      expect(aboutPlayer.map((e) => e.action)).toEqual(['wallet.credit', 'user.verify_email']);
      const both = (await admin.get('/api/admin/audit', { targetId: player.accountId, actorId: studio.accountId }).expect(200)).body;
      expect(both).toEqual({ entries: [], nextCursor: null });
      expect((await admin.get('/api/admin/audit', { actorId: 'not-a-user' }).expect(200)).body).toEqual({ entries: [], nextCursor: null });
    });

    it('answers 400 INVALID_REQUEST for a bad limit, long filters, unknown parameters and unreadable cursors', async () => {
      for (const query of [
        { limit: 0 },
        { limit: 101 },
        { limit: 'ten' },
        { actorId: 'a'.repeat(65) },
        { targetId: 'a'.repeat(65) },
        { action: 'user.ban' },
        { cursor: 'nope' },
        { cursor: Buffer.from('["-5"]').toString('base64url') },
        { cursor: Buffer.from('[5]').toString('base64url') },
      ] as Record<string, string | number>[]) {
        const res = await admin.get('/api/admin/audit', query);
        expect([JSON.stringify(query), res.status, res.body.error]).toEqual([JSON.stringify(query), 400, 'INVALID_REQUEST']);
      }
    });

    it('answers 401 signed out and 403 FORBIDDEN to players and developers', async () => {
      const player = await signUpVerifiedPlayer(t);
      expect((await t.http().get('/api/admin/audit')).status).toBe(401);
      for (const cookie of [player.cookie, dev.cookie]) expect((await t.http().get('/api/admin/audit').set('Cookie', cookie)).body.error).toBe('FORBIDDEN');
    });
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE of audit rows', async () => {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 1);
    const before = (await t.db.query('SELECT * FROM audit_log ORDER BY id')).rows;
    expect(before.length).toBeGreaterThan(0);
    await expect(t.db.query("UPDATE audit_log SET reason = 'rewritten' WHERE target_id = $1", [player.accountId])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log WHERE target_id = $1', [player.accountId])).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await t.db.query('SELECT * FROM audit_log ORDER BY id')).rows).toEqual(before);
  });
});
