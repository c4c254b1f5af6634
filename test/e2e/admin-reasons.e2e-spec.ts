/**
 * Suspending a game and freezing a wallet take an optional reason (CONTRACT §17.2, §4, §19): it is
 * kept in the audit entry (§18); no body works as before; a bad reason is 400 INVALID_REQUEST and
 * changes nothing, not even the audit log.
 */
import type { TestApp } from '../support/app';
import { SignedInAdmin, signedInAdmin } from '../support/admin';
import { createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';

interface Entry {
  action: string;
  targetId: string;
  reason: string | null;
  details: Record<string, unknown>;
}

const BAD_REASONS: [string, unknown][] = [
  ['empty', ''],
  ['201 characters', 'r'.repeat(201)],
  ['a number', 42],
  ['an object', { text: 'spam' }],
];

describe('reasons for suspending a game and freezing a wallet', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let dev: Developer;

  const entriesAbout = async (targetId: string): Promise<Entry[]> => (await admin.get('/api/admin/audit', { targetId }).expect(200)).body.entries;
  const gameStatus = async (gameId: string) => (await t.db.query<{ status: string }>('SELECT status FROM games WHERE id = $1', [gameId])).rows[0]!.status;
  const frozenAt = async (playerId: string) => (await t.db.query<{ frozen_at: Date | null }>('SELECT frozen_at FROM wallets WHERE player_id = $1', [playerId])).rows[0]!.frozen_at;

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  describe('POST /api/admin/games/{gameId}/suspend', () => {
    it('keeps the reason in the game.suspend entry', async () => {
      const game = await publishGame(t, dev);
      const res = await admin.post(`/api/admin/games/${game.gameId}/suspend`, { reason: 'Copyright claim from Pixel Co.' }).expect(200);
      expect(res.body).toMatchObject({ gameId: game.gameId, status: 'suspended' });
      expect(await gameStatus(game.gameId)).toBe('suspended');
      const [entry] = await entriesAbout(game.gameId);
      expect(entry).toMatchObject({ action: 'game.suspend', targetId: game.gameId, reason: 'Copyright claim from Pixel Co.', details: { previousStatus: 'published' } });
    });

    it('without a body, or with an empty one, suspends as before: an entry with reason null', async () => {
      for (const send of [undefined, {}, { reason: null }]) {
        const game = await publishGame(t, dev);
        const request = t.http().post(`/api/admin/games/${game.gameId}/suspend`).set('Cookie', admin.cookie);
        const res = await (send === undefined ? request : request.send(send)).expect(200);
        expect(res.body.status).toBe('suspended');
        const [entry] = await entriesAbout(game.gameId);
        expect(entry).toMatchObject({ action: 'game.suspend', reason: null, details: { previousStatus: 'published' } });
      }
    });

    it.each(BAD_REASONS)('refuses a reason that is %s: 400 INVALID_REQUEST naming the reason, the game and the audit log unchanged', async (_name, reason) => {
      const game = await publishGame(t, dev);
      const before = await entriesAbout(game.gameId);
      const res = await admin.post(`/api/admin/games/${game.gameId}/suspend`, { reason }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.message).toMatch(/reason/i);
      expect(await gameStatus(game.gameId)).toBe('published');
      expect(await entriesAbout(game.gameId)).toEqual(before);
    });

    it('suspending a suspended game with a reason changes nothing and writes no entry', async () => {
      const game = await publishGame(t, dev);
      await admin.post(`/api/admin/games/${game.gameId}/suspend`, { reason: 'First time' }).expect(200);
      const before = await entriesAbout(game.gameId);
      await admin.post(`/api/admin/games/${game.gameId}/suspend`, { reason: 'Second time' }).expect(200);
      expect(await entriesAbout(game.gameId)).toEqual(before);
    });
  });

  describe('POST /api/admin/wallets/{userId}/freeze', () => {
    it('keeps the reason in the wallet.freeze entry', async () => {
      const player = await signUpVerifiedPlayer(t);
      const res = await admin.post(`/api/admin/wallets/${player.accountId}/freeze`, { reason: 'Card reported stolen' }).expect(200);
      expect(res.body.user.walletFrozenAt).toEqual(expect.any(String));
      expect(await frozenAt(player.playerId)).not.toBeNull();
      const [entry] = await entriesAbout(player.accountId);
      expect(entry).toMatchObject({ action: 'wallet.freeze', targetId: player.accountId, reason: 'Card reported stolen', details: { balance: 0 } });
    });

    it('without a body, or with an empty one, freezes as before: an entry with reason null', async () => {
      for (const send of [undefined, {}, { reason: null }]) {
        const player = await signUpVerifiedPlayer(t);
        const request = t.http().post(`/api/admin/wallets/${player.accountId}/freeze`).set('Cookie', admin.cookie);
        const res = await (send === undefined ? request : request.send(send)).expect(200);
        expect(res.body.user.walletFrozenAt).toEqual(expect.any(String));
        const [entry] = await entriesAbout(player.accountId);
        expect(entry).toMatchObject({ action: 'wallet.freeze', reason: null });
      }
    });

    it.each(BAD_REASONS)('refuses a reason that is %s: 400 INVALID_REQUEST naming the reason, the wallet and the audit log unchanged', async (_name, reason) => {
      const player = await signUpVerifiedPlayer(t);
      const before = await entriesAbout(player.accountId);
      const res = await admin.post(`/api/admin/wallets/${player.accountId}/freeze`, { reason }).expect(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.message).toMatch(/reason/i);
      expect(await frozenAt(player.playerId)).toBeNull();
      expect(await entriesAbout(player.accountId)).toEqual(before);
    });

    it('freezing a frozen wallet with a reason changes nothing and writes no entry', async () => {
      const player = await signUpVerifiedPlayer(t);
      await admin.post(`/api/admin/wallets/${player.accountId}/freeze`, { reason: 'First time' }).expect(200);
      const before = await entriesAbout(player.accountId);
      await admin.post(`/api/admin/wallets/${player.accountId}/freeze`, { reason: 'Second time' }).expect(200);
      expect(await entriesAbout(player.accountId)).toEqual(before);
    });
  });

  it('the OpenAPI document describes the optional body of both', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    for (const path of ['/api/admin/games/{gameId}/suspend', '/api/admin/wallets/{userId}/freeze']) {
      const body = doc.paths[path].post.requestBody;
      expect({ path, required: body.required ?? false }).toEqual({ path, required: false });
      const ref: string = body.content['application/json'].schema.$ref;
      const schema = doc.components.schemas[ref.split('/').pop()!];
      expect(schema.required ?? []).not.toContain('reason');
      expect(schema.properties.reason).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    }
  });
});
