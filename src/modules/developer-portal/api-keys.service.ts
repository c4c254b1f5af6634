import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { DatabaseNotifications } from '../../database/notifications';
import { AuditActor, AuditService } from '../audit';
import { ApiKeyCache, ApiKeyContext } from './api-key.cache';
import { ApiKeyKind, ApiKeyRepository, ApiKeyRow } from './api-key.repository';

export type { ApiKeyContext } from './api-key.cache';

/** `svc_live_` / `svc_test_` + 43 base64url characters (32 random bytes). Longer keys are accepted for future formats. */
const KEY_FORMAT = /^svc_(live|test)_[A-Za-z0-9_-]{32,200}$/;

export interface CreatedApiKey {
  id: string;
  kind: ApiKeyKind;
  name: string;
  /** The full secret: shown this once, never stored. */
  key: string;
  prefix: string;
  createdAt: Date;
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** API keys: only the SHA-256 of a key is stored; the key itself leaves the service once. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: ApiKeyRepository,
    private readonly audit: AuditService,
    private readonly cache: ApiKeyCache,
    private readonly notifications: DatabaseNotifications,
  ) {}

  async create(actor: AuditActor, developerId: string, kind: ApiKeyKind, name: string): Promise<CreatedApiKey> {
    const key = `svc_${kind}_${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, 12);
    const row = await this.uow.run(async () => {
      const row = await this.keys.insert(developerId, kind, name, prefix, hashKey(key));
      await this.audit.record({ ...actor, action: 'key.create', targetId: row.id, details: { kind, name, prefix } });
      return row;
    });
    return { id: row.id, kind: row.kind, name: row.name, key, prefix: row.prefix, createdAt: row.createdAt };
  }

  list(developerId: string): Promise<ApiKeyRow[]> {
    return this.keys.list(developerId);
  }

  /** Revoking again changes nothing and records nothing. */
  revoke(actor: AuditActor, developerId: string, keyId: string): Promise<void> {
    return this.uow.run(async () => {
      const revoked = await this.keys.revoke(developerId, keyId);
      if (!revoked) throw new NotFoundError('No such API key.');
      if (revoked.changed) {
        await this.audit.record({ ...actor, action: 'key.revoke', targetId: revoked.id });
        await this.notifications.publish('api-key', { keyId: revoked.id });
      }
    });
  }

  /**
   * The key's owner and kind, or undefined for a malformed, unknown or revoked key, or a banned
   * developer's. A valid key is kept in the instance's ApiKeyCache (no read until it expires or is
   * invalidated); `lastUsedAt` is written when a read finds it over a minute old.
   */
  async authenticate(key: string): Promise<ApiKeyContext | undefined> {
    if (!KEY_FORMAT.test(key)) return undefined;
    const hash = hashKey(key);
    const cacheKey = hash.toString('base64');
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const mark = this.cache.mark();
    const row = await this.keys.byHash(hash);
    if (!row || row.revoked || row.banned || !timingSafeEqual(row.key_hash, hash)) return undefined;
    if (row.stale) await this.keys.touch(row.id);
    const context: ApiKeyContext = { keyId: row.id, developerId: row.developer_id, kind: row.kind };
    this.cache.keep(cacheKey, context, row.account_id, mark);
    return context;
  }
}
