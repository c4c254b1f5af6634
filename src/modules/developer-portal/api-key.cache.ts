import { Injectable } from '@nestjs/common';
import { DatabaseNotifications } from '../../database/notifications';
import type { ApiKeyKind } from './api-key.entity';

/** The caller of a developer endpoint, as `@CurrentApiKey()` gives it. */
export interface ApiKeyContext {
  keyId: string;
  developerId: string;
  kind: ApiKeyKind;
}

interface Entry {
  context: ApiKeyContext;
  accountId: string;
  expiresAt: number;
}

/** An entry is read again after this long: bounds what a change made outside the service (SQL by hand) can leave stale. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Valid API keys by the SHA-256 of the key (never the key itself), so that a developer call makes
 * one round trip instead of two (issue 20). What makes a key invalid reaches every instance through
 * `DatabaseNotifications`: a revocation (`api-key`) and a ban of the developer's account
 * (`account`), published in the transaction that makes the change. Unknown, revoked and banned
 * keys are never kept: each of their calls reads PostgreSQL.
 *
 * Serves entries only while the instance listens for those invalidations, and drops everything when
 * listening stops or starts again. A read that began before an invalidation is not kept (the
 * generation moved on), so a lookup racing a revocation cannot put the revoked key back.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(private readonly notifications: DatabaseNotifications) {
    // Listening stopped (a message may be lost) or started again (one may have been missed): drop all.
    notifications.on('api-key', ({ keyId }) => this.forget((entry) => entry.context.keyId === keyId));
    notifications.on('account', ({ accountId }) => this.forget((entry) => entry.accountId === accountId));
    notifications.onState(() => this.forget(() => true));
  }

  get(hash: string): ApiKeyContext | undefined {
    // Nothing is kept while not listening (keep() refuses, a loss drops all): no check needed here.
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.context;
  }

  /** Call before reading the key from PostgreSQL; give the result to `keep` with it. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a valid key read since `mark`, unless an invalidation came in between. */
  keep(hash: string, context: ApiKeyContext, accountId: string, mark: number): void {
    if (mark !== this.generation || !this.notifications.listening) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { context, accountId, expiresAt: Date.now() + TTL_MS });
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(matches: (entry: Entry) => boolean): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (matches(entry)) this.entries.delete(hash);
  }
}
