import { AddressInfo, createServer } from 'node:net';
import { signedInAdmin } from '../../../test/support/admin';
import type { TestApp } from '../../../test/support/app';
import { eventually } from '../../../test/support/eventually';
import { createApiKey, createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer } from '../../../test/support/factories';
import { fundPlayer, idempotencyKey, paidSession, startSession } from '../../../test/support/play';
import { Backend, createBackend } from '../src/backend';

/**
 * The example backend end to end against the real service (in-process, listening on a port, real
 * PostgreSQL): a developer with a published game, a live key and a webhook endpoint pointing at the
 * example; a player inserts a coin; the example verifies the insertion through the API and grants
 * an item; an admin voids the insertion; the signed `insertion.voided` webhook makes the example
 * revoke it. WEBHOOK_ALLOW_PRIVATE=true: the example listens on 127.0.0.1.
 */
describe('examples/developer-backend against a running service', () => {
  let t: TestApp;
  let backend: Backend;
  let backendUrl: string;
  let world: { dev: Awaited<ReturnType<typeof createDeveloper>>; gameId: string; slug: string; apiKey: string; webhookId: string; secret: string };

  const post = (path: string, body: unknown) =>
    fetch(`${backendUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const items = (playerRef: string) => fetch(`${backendUrl}/players/${playerRef}/items`).then(async (r) => ((await r.json()) as { items: { item: string; insertionId: string }[] }).items);

  beforeAll(async () => {
    t = await createWorldApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1' } });
    await t.app.nest.listen(0, '127.0.0.1');
    const arcadeUrl = `http://127.0.0.1:${(t.app.nest.getHttpServer().address() as AddressInfo).port}`;

    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev);
    const { key } = await createApiKey(t, dev, 'live');
    // The backend needs the endpoint's secret, the endpoint needs the backend's URL: take the port first.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    backendUrl = `http://127.0.0.1:${port}`;
    const endpoint = await t.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url: `${backendUrl}/webhooks/arcade`, description: 'Example backend' }).expect(201);
    backend = createBackend({ arcadeUrl, apiKey: key, webhookSecret: endpoint.body.secret, gameId: game.gameId });
    await new Promise<void>((resolve) => backend.server.listen(port, '127.0.0.1', resolve));
    world = { dev, gameId: game.gameId, slug: game.slug, apiKey: key, webhookId: endpoint.body.webhookId, secret: endpoint.body.secret };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    backend?.server.closeAllConnections();
    await new Promise((r) => backend?.server.close(r));
  });

  async function playerWithCoin() {
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 5);
    const { sessionId, insertionId } = await paidSession(t, player, world.slug);
    // The player's ref, as the game reads it from ArcadeSDK.init() (here through the developer API).
    const summary = await t.http().get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${world.apiKey}`).expect(200);
    return { insertionId, playerRef: summary.body.playerRef as string };
  }

  it('grants an item for a verified paid insertion, and revokes it when an admin voids the insertion', async () => {
    const { insertionId, playerRef } = await playerWithCoin();

    // The game asks for the item it sold for that coin: verified through the API, then granted to the payer.
    const granted = await post('/grants', { insertionId, item: 'golden-paddle' });
    expect(granted).toEqual({ status: 201, body: { insertionId, playerRef, item: 'golden-paddle', grantedAt: expect.any(String), revokedAt: null } });
    expect(await items(playerRef)).toEqual([{ item: 'golden-paddle', insertionId, grantedAt: granted.body.grantedAt }]);
    // Once per insertion: the same request again is the same grant; another item for it is refused.
    expect(await post('/grants', { insertionId, item: 'golden-paddle' })).toEqual({ status: 200, body: granted.body });
    expect(await post('/grants', { insertionId, item: 'extra-life' })).toEqual({ status: 409, body: { error: 'INSERTION_ALREADY_USED' } });

    // An admin voids the insertion: the coin goes back to the player, and the webhook takes the item back.
    const admin = await signedInAdmin(t);
    const voided = await admin.post(`/api/admin/insertions/${insertionId}/void`, { reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }).expect(200);
    await eventually(() => items(playerRef), (held) => held.length === 0);
    expect(await items(playerRef)).toEqual([]);
    expect(backend.grants.get(insertionId)).toMatchObject({ playerRef, item: 'golden-paddle', revokedAt: voided.body.voidedAt });
    const voidedEvents = backend.webhooks.filter((w) => w.type === 'insertion.voided');
    expect(voidedEvents).toEqual([{ webhookId: expect.any(String), type: 'insertion.voided', duplicate: false }]);

    // A voided insertion buys nothing, even for a backend that never saw it granted.
    const second = await playerWithCoin();
    await admin.post(`/api/admin/insertions/${second.insertionId}/void`, { reason: 'Refunded', idempotencyKey: idempotencyKey('void') }).expect(200);
    expect(await post('/grants', { insertionId: second.insertionId, item: 'golden-paddle' })).toEqual({ status: 409, body: { error: 'INSERTION_VOIDED' } });
  });

  it('refuses what the arcade does not vouch for: unknown and test-mode ids, a forged webhook', async () => {
    const { insertionId, playerRef } = await playerWithCoin();
    expect(await post('/grants', { insertionId: '00000000-0000-4000-8000-000000000000', item: 'golden-paddle' })).toEqual({ status: 404, body: { error: 'INSERTION_NOT_FOUND' } });
    expect(await post('/grants', { insertionId: 'test_mock_123', item: 'golden-paddle' })).toEqual({ status: 404, body: { error: 'INSERTION_NOT_FOUND' } });
    expect((await post('/grants', { insertionId })).status).toBe(400);
    expect((await post('/grants', { insertionId, item: 'golden-paddle' })).status).toBe(201);

    // A forged insertion.voided (signed with another secret, or not at all) changes nothing.
    const body = JSON.stringify({ type: 'insertion.voided', timestamp: new Date().toISOString(), data: { insertionId, gameId: world.gameId, sessionId: 's', playerRef, coins: 1, voidedAt: new Date().toISOString() } });
    const forged = await fetch(`${backendUrl}/webhooks/arcade`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': `v1,${Buffer.from('nope').toString('base64')}` },
      body,
    });
    expect(forged.status).toBe(400);
    expect((await items(playerRef)).map((i) => i.insertionId)).toEqual([insertionId]);
  });

  it('handles a redelivered event once (dedupe on webhook-id), and keeps verifying with the old secret after a rotation', async () => {
    const { insertionId, playerRef } = await playerWithCoin();
    expect((await post('/grants', { insertionId, item: 'golden-paddle' })).status).toBe(201);
    // A rotation: for 24 hours the arcade signs with both secrets, so the backend, still on the old one, verifies.
    const rotated = await t.http().post(`/api/portal/webhooks/${world.webhookId}/rotate-secret`).set('Cookie', world.dev.cookie).expect(200);
    expect(rotated.body.secret).not.toBe(world.secret);

    const admin = await signedInAdmin(t);
    await admin.post(`/api/admin/insertions/${insertionId}/void`, { reason: 'Charged twice', idempotencyKey: idempotencyKey('void') }).expect(200);
    await eventually(() => items(playerRef), (held) => held.length === 0);
    expect(await items(playerRef)).toEqual([]);

    // "Retry" sends the same event again, with the same webhook-id: the backend acknowledges it and does nothing twice.
    const log = await t.http().get(`/api/portal/webhooks/${world.webhookId}/deliveries`).set('Cookie', world.dev.cookie).expect(200);
    const delivery = (log.body.deliveries as { deliveryId: string; eventId: string; type: string; status: string }[]).find((d) => d.type === 'insertion.voided' && d.status === 'succeeded' && backend.webhooks.some((w) => w.webhookId === d.eventId));
    expect(delivery).toBeDefined();
    const before = backend.webhooks.filter((w) => w.webhookId === delivery!.eventId);
    await t.http().post(`/api/portal/webhooks/${world.webhookId}/deliveries/${delivery!.deliveryId}/retry`).set('Cookie', world.dev.cookie).expect(202);
    const after = await eventually(async () => backend.webhooks.filter((w) => w.webhookId === delivery!.eventId), (seen) => seen.length > before.length);
    expect(after.slice(before.length)).toEqual([{ webhookId: delivery!.eventId, type: 'insertion.voided', duplicate: true }]);
    expect(backend.grants.get(insertionId)?.revokedAt).not.toBeNull();
  });

  it('never grants in a test-mode session: its insertion ids are not verifiable', async () => {
    const preview = await startSession(t, world.dev, world.slug, { preview: true });
    expect(preview.testMode).toBe(true);
    const coin = await t.http().post(`/api/play/sessions/${preview.sessionId}/insert-coin`).set('Cookie', world.dev.cookie).send({ idempotencyKey: idempotencyKey('coin') }).expect(200);
    expect(coin.body.insertionId).toMatch(/^test_/);
    expect(await post('/grants', { insertionId: coin.body.insertionId, item: 'golden-paddle' })).toEqual({ status: 404, body: { error: 'INSERTION_NOT_FOUND' } });
  });
});
