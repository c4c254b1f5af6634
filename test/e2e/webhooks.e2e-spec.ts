import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { PlaySessionsService } from '../../src/modules/play-sessions';
import { WebhooksRepository } from '../../src/modules/webhooks/webhooks.repository';
import type { TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { createAchievement, createApiKey, createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession, postScore, postTrustedScore, startSession } from '../support/play';
import { signedInAdmin } from '../support/admin';
import { smtpServer, SmtpSink } from '../support/smtp';
import { ReceivedWebhook, webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * CONTRACT §21 against a local receiver (WEBHOOK_ALLOW_PRIVATE=true: it listens on 127.0.0.1) and a
 * short retry schedule (WEBHOOK_RETRY_SCHEDULE=1): endpoints, every event from its trigger, the
 * Standard Webhooks envelope and signature (verified with the `standardwebhooks` package), retries,
 * the delivery log, give-up and disabling with a mail, and SSRF refusals (a second app without
 * WEBHOOK_ALLOW_PRIVATE).
 */
/** This app's JOB_RUNNER_DEAD_AFTER_SECONDS: how long a dead instance's jobs wait before a survivor unlocks them. */
const DEAD_AFTER_SECONDS = 3;

describe('developer webhooks (CONTRACT §21)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  let path = 0;

  beforeAll(async () => {
    receiver = await webhookReceiver();
    smtp = await smtpServer();
    t = await createWorldApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1', JOB_RUNNER_DEAD_AFTER_SECONDS: String(DEAD_AFTER_SECONDS), MAIL_TRANSPORT: `smtp://127.0.0.1:${smtp.port}` } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await new Promise((r) => smtp.server.close(r));
  });

  const newPath = () => `/hook-${++path}`;
  const portal = (dev: { cookie: string }) => ({
    get: (url: string) => t.http().get(url).set('Cookie', dev.cookie),
    post: (url: string, body: object = {}) => t.http().post(url).set('Cookie', dev.cookie).send(body),
    patch: (url: string, body: object) => t.http().patch(url).set('Cookie', dev.cookie).send(body),
    delete: (url: string) => t.http().delete(url).set('Cookie', dev.cookie),
  });

  async function addEndpoint(dev: Developer, body: Record<string, unknown> = {}): Promise<{ webhookId: string; secret: string; path: string; events: string[] }> {
    const p = newPath();
    const res = await portal(dev).post('/api/portal/webhooks', { url: receiver.url(p), ...body }).expect(201);
    return { ...res.body, path: p };
  }

  async function deliveries(dev: Developer, webhookId: string): Promise<Record<string, unknown>[]> {
    return (await portal(dev).get(`/api/portal/webhooks/${webhookId}/deliveries`).expect(200)).body.deliveries;
  }

  /** The parsed body of a request, after checking its signature with the standardwebhooks package. */
  function verified(request: ReceivedWebhook, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
    return new Webhook(secret).verify(request.body, request.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
  }

  /** A developer with a published game (1 coin per credit), a funded player and an endpoint. */
  async function world(endpointBody: Record<string, unknown> = {}) {
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { maxScore: 1000 });
    const player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 20);
    const endpoint = await addEndpoint(dev, endpointBody);
    return { dev, game, player, endpoint };
  }

  const bodiesOf = (p: string, secret: string) => receiver.on(p).map((r) => verified(r, secret));

  describe('endpoints', () => {
    it('creates an endpoint: 201 with the secret once, every event type by default; the list never shows the secret', async () => {
      const dev = await createDeveloper(t);
      const url = receiver.url(newPath());
      const res = await portal(dev).post('/api/portal/webhooks', { url, description: 'Backend' }).expect(201);
      expect(res.body).toEqual({
        webhookId: expect.any(String),
        url,
        events: ['insertion.created', 'insertion.voided', 'score.created', 'score.removed', 'achievement.unlocked', 'session.ended'],
        description: 'Backend',
        enabled: true,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        createdAt: expect.any(String),
      });
      expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
      const list = await portal(dev).get('/api/portal/webhooks').expect(200);
      expect(list.body).toEqual({ webhooks: [{ webhookId: res.body.webhookId, url, events: res.body.events, description: 'Backend', enabled: true, createdAt: res.body.createdAt }] });
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
    });

    it('refuses bad bodies with 400: ping, unknown, repeated or no event types, long URLs and descriptions, relative URLs', async () => {
      const dev = await createDeveloper(t);
      const url = receiver.url(newPath());
      for (const body of [
        { url, events: ['ping'] },
        { url, events: ['insertion.created', 'nope'] },
        { url, events: ['insertion.created', 'insertion.created'] },
        { url, events: [] },
        { url, description: 'x'.repeat(101) },
        { url: `https://example.com/${'a'.repeat(2000)}` },
        { url: '/relative' },
        { url: 'ftp://example.com/x' },
        {},
      ]) {
        const res = await portal(dev).post('/api/portal/webhooks', body);
        expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'INVALID_REQUEST' });
      }
      expect((await portal(dev).get('/api/portal/webhooks').expect(200)).body.webhooks).toEqual([]);
    });

    it('allows 5 endpoints per developer, disabled ones included (409 WEBHOOK_LIMIT_REACHED); a deleted one frees its place', async () => {
      const dev = await createDeveloper(t);
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await addEndpoint(dev, { events: ['session.ended'] }));
      await portal(dev).patch(`/api/portal/webhooks/${made[0]!.webhookId}`, { enabled: false }).expect(200);
      const sixth = await portal(dev).post('/api/portal/webhooks', { url: receiver.url(newPath()) }).expect(409);
      expect(sixth.body.error).toBe('WEBHOOK_LIMIT_REACHED');
      await portal(dev).delete(`/api/portal/webhooks/${made[1]!.webhookId}`).expect(204);
      await portal(dev).post('/api/portal/webhooks', { url: receiver.url(newPath()) }).expect(201);
      expect((await portal(dev).get('/api/portal/webhooks').expect(200)).body.webhooks).toHaveLength(5);
    });

    it('changes url, events, description and enabled with PATCH; another developer\'s or an unknown id is 404, a long id 400', async () => {
      const dev = await createDeveloper(t);
      const other = await createDeveloper(t);
      const { webhookId } = await addEndpoint(dev);
      const url = receiver.url(newPath());
      const res = await portal(dev).patch(`/api/portal/webhooks/${webhookId}`, { url, events: ['session.ended', 'insertion.created'], description: 'New', enabled: false }).expect(200);
      expect(res.body).toMatchObject({ webhookId, url, events: ['insertion.created', 'session.ended'], description: 'New', enabled: false });
      expect(res.body.secret).toBeUndefined();
      await portal(dev).patch(`/api/portal/webhooks/${webhookId}`, { events: ['ping'] }).expect(400);
      const routes = [
        (id: string) => portal(other).patch(`/api/portal/webhooks/${id}`, { enabled: true }),
        (id: string) => portal(other).delete(`/api/portal/webhooks/${id}`),
        (id: string) => portal(other).post(`/api/portal/webhooks/${id}/rotate-secret`),
        (id: string) => portal(other).post(`/api/portal/webhooks/${id}/test`),
        (id: string) => portal(other).get(`/api/portal/webhooks/${id}/deliveries`),
        (id: string) => portal(other).post(`/api/portal/webhooks/${id}/deliveries/${webhookId}/retry`),
      ];
      for (const route of routes) {
        expect((await route(webhookId)).status).toBe(404);
        expect((await route('00000000-0000-4000-8000-000000000000')).body.error).toBe('NOT_FOUND');
        expect((await route('x'.repeat(65))).status).toBe(400);
      }
      await portal(dev).post(`/api/portal/webhooks/${webhookId}/deliveries/${'y'.repeat(65)}/retry`).expect(400);
      await portal(dev).post(`/api/portal/webhooks/${webhookId}/deliveries/00000000-0000-4000-8000-000000000000/retry`).expect(404);
    });

    it('refuses a cross-site write (same-origin) and a player who is not a developer', async () => {
      const dev = await createDeveloper(t);
      await t.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).set('Origin', 'https://evil.example').send({ url: receiver.url(newPath()) }).expect(403);
      const player = await signUpVerifiedPlayer(t);
      await t.http().get('/api/portal/webhooks').set('Cookie', player.cookie).expect(403);
    });
  });

  describe('delivery', () => {
    it('delivers a ping with Standard Webhooks headers and a signature the standardwebhooks package accepts', async () => {
      const dev = await createDeveloper(t);
      const endpoint = await addEndpoint(dev, { events: ['session.ended'] });
      const before = Math.floor(Date.now() / 1000);
      const res = await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      expect(res.body).toEqual({ eventId: expect.any(String) });
      const [request] = await receiver.waitFor(endpoint.path);
      expect(request!.method).toBe('POST');
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.headers['webhook-id']).toBe(res.body.eventId);
      expect(Number(request!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
      expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const body = verified(request!, endpoint.secret);
      expect(body).toEqual({ type: 'ping', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), data: { webhookId: endpoint.webhookId } });
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, request!.headers)).toThrow();
      const log = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.status === 'succeeded');
      expect(log).toEqual([
        {
          deliveryId: expect.any(String), eventId: res.body.eventId, type: 'ping', status: 'succeeded', attempts: 1,
          lastAttemptAt: expect.any(String), lastStatusCode: 200, lastError: null, nextAttemptAt: null, createdAt: expect.any(String),
        },
      ]);
    });

    it('sends a ping to a disabled endpoint too, and to that endpoint alone', async () => {
      const dev = await createDeveloper(t);
      const a = await addEndpoint(dev);
      const b = await addEndpoint(dev);
      await portal(dev).patch(`/api/portal/webhooks/${a.webhookId}`, { enabled: false }).expect(200);
      await portal(dev).post(`/api/portal/webhooks/${a.webhookId}/test`).expect(202);
      await receiver.waitFor(a.path);
      expect(receiver.on(a.path)).toHaveLength(1);
      expect(receiver.on(b.path)).toHaveLength(0);
    });

    it('sends every event type from its trigger, with the data the API shows', async () => {
      const { dev, game, player, endpoint } = await world();
      const { key } = await createAchievement(t, dev, game.gameId, { key: 'first-win' });
      const { sessionId, insertionId } = await paidSession(t, player, game.slug);
      const score = await postScore(t, player, sessionId, 420).expect(200);
      await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key }).expect(200);
      const ended = await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
      const apiKey = await createApiKey(t, dev);
      const verification = await t.http().get(`/api/v1/insertions/${insertionId}`).set('Authorization', `Bearer ${apiKey.key}`).expect(200);
      const summary = await t.http().get(`/api/v1/sessions/${sessionId}`).set('Authorization', `Bearer ${apiKey.key}`).expect(200);

      await receiver.waitFor(endpoint.path, 4);
      const bodies = bodiesOf(endpoint.path, endpoint.secret);
      const byType = (type: string) => bodies.filter((b) => b.type === type);
      const playerRef = verification.body.playerRef;
      expect(byType('insertion.created')).toEqual([
        { type: 'insertion.created', timestamp: verification.body.createdAt, data: { insertionId, gameId: game.gameId, sessionId, playerRef, coins: 1, createdAt: verification.body.createdAt } },
      ]);
      expect(byType('score.created')).toEqual([
        {
          type: 'score.created', timestamp: expect.any(String),
          data: { scoreId: score.body.scoreId, gameId: game.gameId, sessionId, insertionId, playerRef, score: '420', source: 'player', achievedAt: expect.any(String) },
        },
      ]);
      expect(byType('score.created')[0]!.data.achievedAt).toBe(byType('score.created')[0]!.timestamp);
      expect(byType('achievement.unlocked')).toEqual([{ type: 'achievement.unlocked', timestamp: expect.any(String), data: { gameId: game.gameId, key, playerRef, unlockedAt: expect.any(String) } }]);
      expect(byType('session.ended')).toEqual([
        { type: 'session.ended', timestamp: ended.body.endedAt, data: { sessionId, gameId: game.gameId, playerRef, endedAt: ended.body.endedAt, totalCoins: summary.body.totalCoins } },
      ]);
      expect(summary.body.totalCoins).toBe(1);

      // The void: insertion.voided, and its score's score.removed at the void's time.
      const admin = await signedInAdmin(t);
      const voided = await admin.post(`/api/admin/insertions/${insertionId}/void`, { reason: 'Charged by a game bug', idempotencyKey: idempotencyKey('void') }).expect(200);
      await receiver.waitFor(endpoint.path, 6);
      const after = bodiesOf(endpoint.path, endpoint.secret);
      expect(after.filter((b) => b.type === 'insertion.voided')).toEqual([
        { type: 'insertion.voided', timestamp: voided.body.voidedAt, data: { insertionId, gameId: game.gameId, sessionId, playerRef, coins: 1, voidedAt: voided.body.voidedAt } },
      ]);
      expect(after.filter((b) => b.type === 'score.removed')).toEqual([
        { type: 'score.removed', timestamp: voided.body.voidedAt, data: { scoreId: score.body.scoreId, gameId: game.gameId, removedAt: voided.body.voidedAt } },
      ]);
      // The same event id on every endpoint; each delivery's webhook-id is its event's.
      const ids = receiver.on(endpoint.path).map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('sends score.created for a trusted score and score.removed for an admin removal', async () => {
      const { dev, game, player, endpoint } = await world({ events: ['score.created', 'score.removed'] });
      const apiKey = await createApiKey(t, dev);
      const { insertionId, sessionId } = await paidSession(t, player, game.slug);
      const score = await postTrustedScore(t, apiKey.key, insertionId, 77).expect(200);
      const admin = await signedInAdmin(t);
      const removed = await admin.post(`/api/admin/scores/${score.body.scoreId}/remove`, { reason: 'Forged.' }).expect(200);
      await admin.post(`/api/admin/scores/${score.body.scoreId}/remove`, { reason: 'Again.' }).expect(200);
      await receiver.waitFor(endpoint.path, 2);
      await new Promise((r) => setTimeout(r, 500));
      const bodies = bodiesOf(endpoint.path, endpoint.secret);
      expect(bodies.map((b) => b.type)).toEqual(expect.arrayContaining(['score.created', 'score.removed']));
      expect(bodies).toHaveLength(2);
      expect(bodies.find((b) => b.type === 'score.created')!.data).toMatchObject({ scoreId: score.body.scoreId, sessionId, insertionId, score: '77', source: 'trusted' });
      expect(bodies.find((b) => b.type === 'score.removed')!.data).toEqual({ scoreId: score.body.scoreId, gameId: game.gameId, removedAt: removed.body.removedAt });
    });

    it('sends nothing for test mode, replays, repeats, refusals, rolled-back changes or unsubscribed types', async () => {
      const { dev, game, player, endpoint } = await world({ events: ['insertion.created', 'session.ended', 'achievement.unlocked'] });
      await createAchievement(t, dev, game.gameId, { key: 'once' });
      // Test mode: the developer's preview.
      await fundPlayer(t, dev, 5);
      const preview = await startSession(t, dev, game.slug, { preview: true });
      expect(preview.testMode).toBe(true);
      await t.http().post(`/api/play/sessions/${preview.sessionId}/insert-coin`).set('Cookie', dev.cookie).send({ idempotencyKey: idempotencyKey() }).expect(200);
      await t.http().post(`/api/v1/sessions/${preview.sessionId}/achievements`).set('Cookie', dev.cookie).send({ key: 'once' }).expect(200);
      await t.http().post(`/api/play/sessions/${preview.sessionId}/end`).set('Cookie', dev.cookie).expect(200);
      // A replay, a repeated unlock, a repeated end, a refusal (402), an unsubscribed type (score.created).
      const { sessionId } = await startSession(t, player, game.slug);
      const key = idempotencyKey('coin');
      await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key }).expect(200);
      const replay = await t.http().post(`/api/play/sessions/${sessionId}/insert-coin`).set('Cookie', player.cookie).send({ idempotencyKey: key }).expect(200);
      expect(replay.body.replayed).toBe(true);
      await postScore(t, player, sessionId, 5).expect(200);
      await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key: 'once' }).expect(200);
      await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key: 'once' }).expect(200);
      const poor = await signUpVerifiedPlayer(t);
      const poorSession = await startSession(t, poor, game.slug);
      await t.http().post(`/api/play/sessions/${poorSession.sessionId}/insert-coin`).set('Cookie', poor.cookie).send({ idempotencyKey: idempotencyKey() }).expect(402);
      // A change that rolls back: the end's statement and its event, then a failure in the same transaction.
      const uow = t.app.nest.get(UnitOfWork);
      await expect(uow.run(async () => {
        await t.app.nest.get(PlaySessionsService).end(poor.playerId, poorSession.sessionId);
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
      await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);

      await receiver.waitFor(endpoint.path, 3);
      await new Promise((r) => setTimeout(r, 1000));
      expect(bodiesOf(endpoint.path, endpoint.secret).map((b) => b.type).sort()).toEqual(['achievement.unlocked', 'insertion.created', 'session.ended']);
      const { rows } = await t.db.query('SELECT count(*)::int AS n FROM webhook_events WHERE developer_id = $1', [dev.developerId]);
      expect(rows[0].n).toBe(3);
      const ended = await t.db.query('SELECT ended_at FROM play_sessions WHERE id = $1', [poorSession.sessionId]);
      expect(ended.rows[0].ended_at).toBeNull();
    });

    it('records nothing for a developer without an enabled, subscribed endpoint (disabled or deleted ones get nothing)', async () => {
      const { dev, game, player, endpoint } = await world();
      const second = await addEndpoint(dev);
      await portal(dev).patch(`/api/portal/webhooks/${endpoint.webhookId}`, { enabled: false }).expect(200);
      await portal(dev).delete(`/api/portal/webhooks/${second.webhookId}`).expect(204);
      await paidSession(t, player, game.slug);
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.on(endpoint.path)).toHaveLength(0);
      expect(receiver.on(second.path)).toHaveLength(0);
      const { rows } = await t.db.query('SELECT count(*)::int AS n FROM webhook_events WHERE developer_id = $1', [dev.developerId]);
      expect(rows[0].n).toBe(0);
    });

    it('retries a failing endpoint on the schedule until it answers 2xx; the log shows each attempt', async () => {
      const { dev, game, player, endpoint } = await world({ events: ['insertion.created'] });
      receiver.answer(endpoint.path, { status: 500 }, { status: 503 }, { status: 204 });
      await paidSession(t, player, game.slug);
      await receiver.waitFor(endpoint.path, 1);
      const failing = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.attempts === 1);
      expect(failing[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: expect.any(String) });
      const done = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.status === 'succeeded');
      expect(done[0]).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
      const requests = receiver.on(endpoint.path);
      expect(requests).toHaveLength(3);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      for (const r of requests) verified(r, endpoint.secret);
    });

    it('never follows a redirect: the attempt fails with its status', async () => {
      const { dev, endpoint } = await world();
      const target = newPath();
      receiver.answer(endpoint.path, { status: 302, location: receiver.url(target) });
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      const log = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => (d[0]?.attempts as number) >= 1);
      expect(log[0]).toMatchObject({ status: 'pending', lastStatusCode: 302, lastError: expect.stringContaining('redirect') });
      expect(receiver.on(target)).toHaveLength(0);
      await portal(dev).delete(`/api/portal/webhooks/${endpoint.webhookId}`).expect(204);
    });

    it('reports a refused connection, and a dead endpoint delays no other endpoint of the same developer', async () => {
      const dev = await createDeveloper(t);
      const dead = await addEndpoint(dev);
      receiver.answer(dead.path, 'hang');
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const refused = (await portal(dev).post('/api/portal/webhooks', { url: `http://127.0.0.1:${closedPort}/refused` }).expect(201)).body;
      const alive = await addEndpoint(dev);
      await portal(dev).post(`/api/portal/webhooks/${dead.webhookId}/test`).expect(202);
      await receiver.waitFor(dead.path, 1);
      await portal(dev).post(`/api/portal/webhooks/${refused.webhookId}/test`).expect(202);
      await portal(dev).post(`/api/portal/webhooks/${alive.webhookId}/test`).expect(202);
      // The live endpoint's ping succeeds while the dead one's first attempt is still waiting for an answer.
      await eventually(() => deliveries(dev, alive.webhookId), (d) => d[0]?.status === 'succeeded');
      expect((await deliveries(dev, alive.webhookId))[0]!.status).toBe('succeeded');
      expect((await deliveries(dev, dead.webhookId))[0]!.attempts).toBe(0);
      const refusedLog = await eventually(() => deliveries(dev, refused.webhookId), (d) => (d[0]?.attempts as number) >= 1);
      expect(refusedLog[0]).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: 'connection refused' });
      // The 10 s budget: the silent endpoint's attempt fails as a time-out.
      const deadLog = await eventually(() => deliveries(dev, dead.webhookId), (d) => (d[0]?.attempts as number) >= 1, { withinMs: 20_000 });
      expect(deadLog[0]).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: 'timed out after 10 s' });
      for (const e of [dead, refused, alive]) await portal(dev).delete(`/api/portal/webhooks/${e.webhookId}`).expect(204);
    });

    it('signs with both secrets for 24 hours after a rotation; each verifies alone', async () => {
      const dev = await createDeveloper(t);
      const endpoint = await addEndpoint(dev);
      const rotated = await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/rotate-secret`).expect(200);
      expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      const [request] = await receiver.waitFor(endpoint.path);
      expect(request!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
      verified(request!, endpoint.secret);
      verified(request!, rotated.body.secret);
      // After the 24 hours, only the new secret signs.
      await t.db.query("UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1", [endpoint.webhookId]);
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      const [, second] = await receiver.waitFor(endpoint.path, 2);
      expect(second!.headers['webhook-signature']).toMatch(/^v1,\S+$/);
      verified(second!, rotated.body.secret);
      expect(() => verified(second!, endpoint.secret)).toThrow();
    });

    it('"Retry" makes one more attempt at once whatever the status; a success makes the delivery succeeded', async () => {
      const dev = await createDeveloper(t);
      const endpoint = await addEndpoint(dev);
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      const [done] = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.status === 'succeeded');
      const retried = await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/deliveries/${done!.deliveryId}/retry`).expect(202);
      expect(retried.body).toEqual({ deliveryId: done!.deliveryId });
      const again = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.attempts === 2);
      expect(again[0]).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
      expect(receiver.on(endpoint.path)).toHaveLength(2);
      expect(receiver.on(endpoint.path)[1]!.headers['webhook-id']).toBe(receiver.on(endpoint.path)[0]!.headers['webhook-id']);
      // A failed delivery (gave up) that succeeds on retry becomes succeeded.
      await t.db.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1", [done!.deliveryId]);
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/deliveries/${done!.deliveryId}/retry`).expect(202);
      const third = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.attempts === 3);
      expect(third[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
    });

    it('gives up after 3 days (failed), disables the endpoint and mails the developer; re-enabling resumes pending deliveries', async () => {
      const { dev, game, player, endpoint } = await world({ events: ['insertion.created'] });
      receiver.answer(endpoint.path, { status: 500 });
      await paidSession(t, player, game.slug);
      await paidSession(t, player, game.slug);
      const pending = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d.length === 2 && d.every((x) => (x.attempts as number) >= 1));
      // The older one was recorded 3 days ago: its next failure is its last.
      const oldest = pending[1]!;
      await t.db.query("UPDATE webhook_deliveries SET created_at = created_at - interval '3 days' WHERE id = $1", [oldest.deliveryId]);
      await t.db.query("UPDATE webhook_endpoints SET created_at = created_at - interval '3 days' WHERE id = $1", [endpoint.webhookId]);
      const gaveUp = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d.some((x) => x.status === 'failed'));
      expect(gaveUp.find((x) => x.deliveryId === oldest.deliveryId)).toMatchObject({ status: 'failed', nextAttemptAt: null, lastError: 'HTTP 500' });
      const listed = await eventually(async () => (await portal(dev).get('/api/portal/webhooks').expect(200)).body.webhooks[0], (w) => w.enabled === false);
      expect(listed.enabled).toBe(false);
      const [mail] = await smtp.waitFor(dev.email, 1, 'A webhook endpoint was disabled');
      expect(mail!.text).toContain(receiver.url(endpoint.path));
      expect(mail!.text).toContain(`/developer/webhooks/${endpoint.webhookId}`);
      // Disabled: the other delivery waits (no attempts), and a new change records nothing.
      const attemptsThen = receiver.on(endpoint.path).length;
      await paidSession(t, player, game.slug);
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.on(endpoint.path).length).toBe(attemptsThen);
      expect(await deliveries(dev, endpoint.webhookId)).toHaveLength(2);
      // Enabled again, answering: the pending one resumes and succeeds; the failed one stays failed.
      receiver.answer(endpoint.path, { status: 200 });
      await portal(dev).patch(`/api/portal/webhooks/${endpoint.webhookId}`, { enabled: true }).expect(200);
      const resumed = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d.some((x) => x.status === 'succeeded'));
      expect(resumed.map((x) => x.status).sort()).toEqual(['failed', 'succeeded']);
    });

    it('pages the delivery log newest first; an unreadable cursor or a bad limit is 400', async () => {
      const dev = await createDeveloper(t);
      const endpoint = await addEndpoint(dev);
      for (let i = 0; i < 3; i++) await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      const first = await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries?limit=2`).expect(200);
      expect(first.body.deliveries).toHaveLength(2);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries?limit=2&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body).toEqual({ deliveries: [expect.objectContaining({ type: 'ping' })], nextCursor: null });
      const all = [...first.body.deliveries, ...second.body.deliveries];
      expect(new Set(all.map((d: { deliveryId: string }) => d.deliveryId)).size).toBe(3);
      const times = all.map((d: { createdAt: string }) => d.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect((await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries?cursor=nonsense`).expect(400)).body.error).toBe('INVALID_REQUEST');
      await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries?limit=0`).expect(400);
      await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries?limit=101`).expect(400);
    });

    it('sends nothing more to a deleted endpoint', async () => {
      const { dev, game, player, endpoint } = await world({ events: ['insertion.created'] });
      receiver.answer(endpoint.path, { status: 500 });
      await paidSession(t, player, game.slug);
      await receiver.waitFor(endpoint.path, 1);
      await portal(dev).delete(`/api/portal/webhooks/${endpoint.webhookId}`).expect(204);
      const count = receiver.on(endpoint.path).length;
      await paidSession(t, player, game.slug);
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.on(endpoint.path).length).toBeLessThanOrEqual(count + 1);
      const settled = receiver.on(endpoint.path).length;
      await new Promise((r) => setTimeout(r, 2000));
      expect(receiver.on(endpoint.path).length).toBe(settled);
      await portal(dev).get(`/api/portal/webhooks/${endpoint.webhookId}/deliveries`).expect(404);
    });
  });

  describe('an instance killed with jobs locked (docs/webhooks.md, "Crashes")', () => {
    /**
     * What a kill -9 leaves between graphile-worker's fetch and anything of ours: a runner row that
     * nobody refreshes and a job locked by its pool. Written in one transaction with the event, so
     * the job is never visible unlocked (this app's workers cannot take it first). The lock is set
     * on graphile-worker's job table directly: its public SQL has no call that locks a job.
     */
    async function eventLockedByDeadInstance(developerId: string, webhookId: string): Promise<{ eventId: string; runnerId: string; pool: string }> {
      const runnerId = randomUUID();
      const pool = `pool-dead-${runnerId.slice(0, 8)}`;
      const client = await t.db.connect();
      try {
        await client.query('BEGIN');
        await client.query("INSERT INTO job_runners (id, worker_ids, seen_at) VALUES ($1, $2, now() - interval '1 hour')", [runnerId, [pool]]);
        const { rows } = await client.query<{ id: string }>(
          "INSERT INTO webhook_events (developer_id, type, occurred_at, data, endpoint_id) VALUES ($1, 'ping', now(), jsonb_build_object('webhookId', $2::text), $2::uuid) RETURNING id",
          [developerId, webhookId],
        );
        const locked = await client.query(
          `UPDATE graphile_worker._private_jobs SET locked_by = $1, locked_at = now()
            WHERE key = (SELECT 'webhook_delivery:' || id FROM webhook_deliveries WHERE event_id = $2)`,
          [pool, rows[0]!.id],
        );
        expect(locked.rowCount).toBe(1);
        await client.query('COMMIT');
        return { eventId: rows[0]!.id, runnerId, pool };
      } finally {
        client.release();
      }
    }

    it('a survivor unlocks the job of a dead instance and delivers it within the dead-after time (graphile-worker alone: 4 hours)', async () => {
      const dev = await createDeveloper(t);
      const endpoint = await addEndpoint(dev);
      const { eventId, runnerId } = await eventLockedByDeadInstance(dev.developerId, endpoint.webhookId);
      // Dead-after, plus a heartbeat or two, plus a wide margin for a busy machine: still far from 4 hours.
      const received = await receiver.waitFor(endpoint.path, 1, (DEAD_AFTER_SECONDS + 12) * 1000);
      expect(received.map((r) => r.headers['webhook-id'])).toEqual([eventId]);
      const left = await t.db.query('SELECT 1 FROM job_runners WHERE id = $1', [runnerId]);
      expect(left.rowCount).toBe(0);
      expect((await deliveries(dev, endpoint.webhookId))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    });

    it('an instance taken for dead records nothing (its job may be running elsewhere): the record is fenced on its runner row', async () => {
      const { dev, endpoint } = await world();
      await portal(dev).post(`/api/portal/webhooks/${endpoint.webhookId}/test`).expect(202);
      await receiver.waitFor(endpoint.path, 1);
      const [delivery] = await eventually(() => deliveries(dev, endpoint.webhookId), (d) => d[0]?.status === 'succeeded');
      const repository = t.app.nest.get(WebhooksRepository);
      const record = { deliveryId: delivery!.deliveryId as string, endpointId: endpoint.webhookId, ok: false, statusCode: 500, error: 'HTTP 500', nextAttemptAt: new Date(Date.now() + 60_000), finishedBefore: false };
      expect(await repository.recordAttempt({ ...record, runnerId: randomUUID() })).toBe('reaped');
      expect(await repository.postpone(randomUUID(), record.deliveryId, false, 1)).toBe(false);
      expect((await deliveries(dev, endpoint.webhookId))[0]).toMatchObject({ status: 'succeeded', attempts: 1, lastError: null });
      const jobs = await t.db.query("SELECT 1 FROM graphile_worker.jobs WHERE key = 'webhook_delivery:' || $1", [record.deliveryId]);
      expect(jobs.rowCount).toBe(0);
    });
  });

  describe('without WEBHOOK_ALLOW_PRIVATE', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await createWorldApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1' } });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses http: and literal private, loopback and link-local addresses at creation (400)', async () => {
      const dev = await createDeveloper(strict);
      for (const url of [
        'http://example.com/hook', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://192.168.0.10/hook', 'https://172.16.5.4/hook',
        'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://[fe80::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://0x7f000001/hook', 'https://0.0.0.0/hook',
      ]) {
        const res = await strict.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url });
        expect({ url, status: res.status, error: res.body.error }).toEqual({ url, status: 400, error: 'INVALID_REQUEST' });
      }
      await strict.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url: 'https://example.com/hook' }).expect(201);
    });

    it('refuses, at the attempt, a name that resolves to a private address (checked on the address connected to)', async () => {
      const dev = await createDeveloper(strict);
      const created = await strict.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url: `https://localhost:${receiver.port}/ssrf` }).expect(201);
      await strict.http().post(`/api/portal/webhooks/${created.body.webhookId}/test`).set('Cookie', dev.cookie).expect(202);
      const log = await eventually(
        async () => (await strict.http().get(`/api/portal/webhooks/${created.body.webhookId}/deliveries`).set('Cookie', dev.cookie).expect(200)).body.deliveries,
        (d: Record<string, unknown>[]) => (d[0]?.attempts as number) >= 1,
      );
      expect(log[0]).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1), a private, loopback or link-local address$/) });
      expect(receiver.on('/ssrf')).toHaveLength(0);
    });
  });
});
