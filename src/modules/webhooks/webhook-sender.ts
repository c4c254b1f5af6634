import dns from 'node:dns';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, fetch } from 'undici';
import { CONFIG, Config } from '../../config';
import { isDeniedAddress, literalAddress, WEBHOOK_ATTEMPT_TIMEOUT_MS, webhookSignature } from './webhook.rules';

/** One attempt's outcome: `ok` for a 2xx within the budget; else a status (null without an answer) and a short error. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface OutgoingDelivery {
  url: string;
  /** The event id: `webhook-id`, the same on every retry and every endpoint. */
  messageId: string;
  body: string;
  /** The secrets that sign (the current one, and the old one for 24 hours after a rotation). */
  secrets: readonly string[];
}

/** Why a connection was refused before it was made (after DNS, on the address it would connect to). */
class PrivateAddressError extends Error {
  readonly code = 'EPRIVATE';
}

/**
 * Sends one delivery (CONTRACT §21) with undici's fetch: Standard Webhooks headers and signature,
 * 10 seconds from the start (connecting included), redirects never followed. Without
 * WEBHOOK_ALLOW_PRIVATE, the address is checked inside the socket's own DNS lookup, so the address
 * checked is the address connected to (no DNS-rebinding window); a literal address never reaches
 * the lookup and is checked here.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly allowPrivate: boolean;
  private readonly agent: Agent;

  constructor(@Inject(CONFIG) config: Config) {
    this.allowPrivate = config.webhooks.allowPrivate;
    this.agent = new Agent({
      connect: {
        timeout: WEBHOOK_ATTEMPT_TIMEOUT_MS,
        ...(this.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      // Keep-alive connections are reused per origin; an idle one closes after 4 s.
      keepAliveTimeout: 4_000,
    });
  }

  async send(delivery: OutgoingDelivery, now: Date = new Date()): Promise<AttemptOutcome> {
    const timestamp = Math.floor(now.getTime() / 1000);
    const signature = delivery.secrets.map((secret) => webhookSignature(secret, delivery.messageId, timestamp, delivery.body)).join(' ');
    const url = new URL(delivery.url);
    const literal = literalAddress(url);
    if (!this.allowPrivate && literal !== null && isDeniedAddress(literal)) {
      return { ok: false, statusCode: null, error: `refused: ${literal} is a private, loopback or link-local address` };
    }
    try {
      const answer = await fetch(url, {
        method: 'POST',
        body: delivery.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ArcadeWebhooks/1.0',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        redirect: 'manual',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(WEBHOOK_ATTEMPT_TIMEOUT_MS),
      });
      // The answer's body is not read: release the connection.
      await answer.body?.cancel().catch(() => undefined);
      if (answer.status >= 200 && answer.status < 300) return { ok: true, statusCode: answer.status, error: null };
      if (answer.status >= 300 && answer.status < 400) {
        return { ok: false, statusCode: answer.status, error: `redirect (HTTP ${answer.status}) not followed` };
      }
      return { ok: false, statusCode: answer.status, error: `HTTP ${answer.status}` };
    } catch (error) {
      return { ok: false, statusCode: null, error: describe(error) };
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

/** dns.lookup, refusing a name any of whose addresses is private, loopback or link-local. */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const denied = addresses.find((a) => isDeniedAddress(a.address));
    if (denied) return callback(new PrivateAddressError(`refused: ${hostname} resolves to ${denied.address}, a private, loopback or link-local address`), '', 0);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/** A short text for a failed attempt without an answer: a time-out, a refused connection, a refused address, DNS. */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s`;
  const cause = e?.cause;
  if (cause instanceof PrivateAddressError || cause?.code === 'EPRIVATE') return cause.message ?? 'refused: a private, loopback or link-local address';
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the name does not resolve (DNS)';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `timed out after ${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s`;
    default:
      if (cause?.code && /^(ERR_TLS|CERT_|DEPTH_|UNABLE_TO|SELF_SIGNED)/.test(cause.code)) return `TLS failed (${cause.code})`;
      return `connection failed${cause?.code ? ` (${cause.code})` : ''}`;
  }
}
