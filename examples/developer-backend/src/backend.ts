/**
 * A game developer's backend, as small as it can be while doing the two things that matter
 * (docs/developers.md):
 *
 * 1. `POST /grants { insertionId, item }`: the game asks for an item bought with a coin. The
 *    backend asks the arcade whether that insertion was really paid (live API key), and only then
 *    grants the item, once per insertion, to the player who paid (the arcade's `playerRef`, not
 *    whatever the request says).
 * 2. `POST /webhooks/arcade`: the arcade's signed webhooks. On `insertion.voided` (an admin gave
 *    the coins back) the item is revoked. Each event is handled once, whatever the retries: the
 *    backend remembers the `webhook-id`s it has handled.
 *
 * `GET /players/{playerRef}/items` lists what a player holds. Everything is kept in memory to stay
 * readable; a real backend keeps it in its database, with the grant's insertion id unique and the
 * handled webhook id written in the same transaction as the revocation.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { ArcadeApiError, createArcadeClient, PaidInsertion, verifyPaidInsertion, verifyWebhook, WebhookEvent, webhookId, WebhookVerificationError } from '@arcade-coin/server-kit';

export interface BackendOptions {
  /** The arcade's origin, e.g. https://arcade.example.com */
  arcadeUrl: string;
  /** A live API key (`svc_live_…`): test keys see no paid insertions. */
  apiKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`); both during a switch to a rotated one. */
  webhookSecret: string | string[];
  /** Grant only for insertions in this game (a developer's key sees all of their games). */
  gameId?: string;
}

export interface Grant {
  insertionId: string;
  playerRef: string;
  item: string;
  grantedAt: string;
  revokedAt: string | null;
}

export interface Backend {
  server: Server;
  /** By insertion id: one grant per paid insertion. */
  grants: Map<string, Grant>;
  /** Every verified webhook, in arrival order; `duplicate` when its id had been handled already. */
  webhooks: { webhookId: string; type: WebhookEvent['type']; duplicate: boolean }[];
}

const ITEM = /^[a-z0-9-]{1,40}$/;
const MAX_BODY = 64 * 1024;

export function createBackend(options: BackendOptions): Backend {
  const arcade = createArcadeClient({ baseUrl: options.arcadeUrl, apiKey: options.apiKey });
  const grants = new Map<string, Grant>();
  /** Insertions voided before anyone asked for their item: never grant those. */
  const voided = new Set<string>();
  /** `webhook-id`s handled: the arcade delivers at least once. */
  const handledWebhooks = new Set<string>();
  const webhooks: Backend['webhooks'] = [];

  async function grant(body: unknown, res: ServerResponse): Promise<void> {
    const { insertionId, item } = (body ?? {}) as Record<string, unknown>;
    if (typeof insertionId !== 'string' || insertionId.length === 0 || insertionId.length > 64 || typeof item !== 'string' || !ITEM.test(item)) {
      return send(res, 400, { error: 'INVALID_REQUEST', message: 'body: { insertionId, item }' });
    }
    const existing = grants.get(insertionId);
    if (existing) return existing.item === item ? send(res, 200, existing) : send(res, 409, { error: 'INSERTION_ALREADY_USED' });

    let verdict: PaidInsertion;
    try {
      verdict = await verifyPaidInsertion(arcade, insertionId);
    } catch (error) {
      // Not a "no": the arcade could not say (rate limit, outage, a revoked key). Grant nothing; the game may retry.
      if (error instanceof ArcadeApiError) return send(res, 503, { error: 'ARCADE_UNAVAILABLE', message: error.message });
      throw error;
    }
    if (!verdict.paid) return send(res, verdict.reason === 'voided' ? 409 : 404, { error: verdict.reason === 'voided' ? 'INSERTION_VOIDED' : 'INSERTION_NOT_FOUND' });
    const { insertion } = verdict;
    if (options.gameId && insertion.gameId !== options.gameId) return send(res, 404, { error: 'INSERTION_NOT_FOUND' });

    // Checked again after the await: a concurrent request or a void webhook may have come meanwhile.
    const raced = grants.get(insertionId);
    if (raced) return raced.item === item ? send(res, 200, raced) : send(res, 409, { error: 'INSERTION_ALREADY_USED' });
    if (voided.has(insertionId)) return send(res, 409, { error: 'INSERTION_VOIDED' });
    const granted: Grant = { insertionId, playerRef: insertion.playerRef, item, grantedAt: new Date().toISOString(), revokedAt: null };
    grants.set(insertionId, granted);
    send(res, 201, granted);
  }

  function webhook(raw: Buffer, req: IncomingMessage, res: ServerResponse): void {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(raw, req.headers, options.webhookSecret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return send(res, 400, { error: 'INVALID_SIGNATURE', message: error.message });
      throw error;
    }
    const id = webhookId(req.headers);
    const duplicate = handledWebhooks.has(id);
    webhooks.push({ webhookId: id, type: event.type, duplicate });
    if (duplicate) return send(res, 200, { received: true });
    switch (event.type) {
      case 'insertion.voided': {
        voided.add(event.data.insertionId);
        const granted = grants.get(event.data.insertionId);
        if (granted && granted.revokedAt === null) granted.revokedAt = event.data.voidedAt;
        break;
      }
      default:
        // Other events (insertion.created, score.created, ping, ...): nothing to do here.
        break;
    }
    handledWebhooks.add(id);
    send(res, 200, { received: true });
  }

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (raw) => {
        const path = new URL(req.url ?? '/', 'http://backend').pathname;
        if (req.method === 'POST' && path === '/grants') return grant(parseJson(raw), res);
        if (req.method === 'POST' && path === '/webhooks/arcade') return webhook(raw, req, res);
        const items = /^\/players\/(pr_[0-9a-f]{32})\/items$/.exec(path);
        if (req.method === 'GET' && items) {
          const held = [...grants.values()].filter((g) => g.playerRef === items[1] && g.revokedAt === null);
          return send(res, 200, { items: held.map((g) => ({ item: g.item, insertionId: g.insertionId, grantedAt: g.grantedAt })) });
        }
        send(res, 404, { error: 'NOT_FOUND' });
      })
      .catch((error: unknown) => {
        if (error instanceof BodyError) return send(res, error.status, { error: error.message });
        console.error(error);
        if (!res.headersSent) send(res, 500, { error: 'INTERNAL_ERROR' });
      });
  });
  return { server, grants, webhooks };
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The raw bytes: webhooks are verified on exactly what was sent, before any JSON parsing. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new BodyError(413, 'PAYLOAD_TOO_LARGE'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BodyError(400, 'INVALID_REQUEST');
  }
}

function send(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
