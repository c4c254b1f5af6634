import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';
import { ApiKey, ApiKeyKind } from './api-key.entity';

export type { ApiKeyKind } from './api-key.entity';

export interface ApiKeyRow {
  id: string;
  kind: ApiKeyKind;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiKeyAuthRow {
  id: string;
  developer_id: string;
  kind: ApiKeyKind;
  key_hash: Buffer;
  revoked: boolean;
  /** The developer's account (a ban of it invalidates the key's cache entries). */
  account_id: string;
  /** The developer's account is banned: the key answers 401 while the ban lasts (CONTRACT §18). */
  banned: boolean;
  /** True when lastUsedAt is unset or over a minute old. */
  stale: boolean;
}

/**
 * API keys: creating and listing through TypeORM's entity API; the per-request lookup by hash and
 * the once-a-minute touch stay hand-written statements (they run on every developer API call).
 */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get keys() {
    return this.uow.manager.getRepository(ApiKey);
  }

  async insert(developerId: string, kind: ApiKeyKind, name: string, prefix: string, keyHash: Buffer): Promise<ApiKeyRow> {
    const key = this.keys.create({ developerId, kind, name, prefix, keyHash });
    await this.keys.insert(key);
    return { id: key.id, kind, name, prefix, createdAt: key.createdAt, lastUsedAt: null, revokedAt: null };
  }

  list(developerId: string): Promise<ApiKeyRow[]> {
    return this.keys.find({
      select: { id: true, kind: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
      where: { developerId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /**
   * Revokes once (a repeat keeps the first `revokedAt`; `changed` tells which); undefined when it is
   * not the developer's key.
   */
  async revoke(developerId: string, keyId: string): Promise<{ id: string; changed: boolean } | undefined> {
    if (!isUuid(keyId)) return undefined;
    const row = await this.uow.one<{ id: string; was_revoked: boolean }>(
      `UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now())
         FROM (SELECT id, revoked_at IS NOT NULL AS was_revoked FROM api_keys WHERE id = $1 AND developer_id = $2 FOR UPDATE) old
        WHERE k.id = old.id RETURNING k.id, old.was_revoked`,
      [keyId, developerId],
    );
    return row && { id: row.id, changed: !row.was_revoked };
  }

  byHash(keyHash: Buffer): Promise<ApiKeyAuthRow | undefined> {
    return this.uow.one<ApiKeyAuthRow>(
      `SELECT k.id, k.developer_id, k.kind, k.key_hash, k.revoked_at IS NOT NULL AS revoked, d.account_id, a.banned_at IS NOT NULL AS banned,
              coalesce(k.last_used_at < now() - interval '1 minute', true) AS stale
         FROM api_keys k JOIN developers d ON d.id = k.developer_id JOIN accounts a ON a.id = d.account_id
        WHERE k.key_hash = $1`,
      [keyHash],
    );
  }

  /** At most one write a minute per key, so a busy backend does not rewrite the row on every call. */
  async touch(keyId: string): Promise<void> {
    await this.uow.query(
      "UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
      [keyId],
    );
  }
}
