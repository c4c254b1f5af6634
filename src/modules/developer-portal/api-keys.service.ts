import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { AuditActor, AuditService } from '../audit';
import { ApiKeyKind, ApiKeyRepository, ApiKeyRow } from './api-key.repository';

/** `svc_live_` / `svc_test_` + 43 base64url characters (32 random bytes). Longer keys are accepted for future formats. */
const KEY_FORMAT = /^svc_(live|test)_[A-Za-z0-9_-]{32,200}$/;

/** The caller of a developer endpoint, as `@CurrentApiKey()` gives it. */
export interface ApiKeyContext {
  keyId: string;
  developerId: string;
  kind: ApiKeyKind;
}

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
      if (revoked.changed) await this.audit.record({ ...actor, action: 'key.revoke', targetId: revoked.id });
    });
  }

  /** The key's owner and kind, or undefined for a malformed, unknown or revoked key, or a banned developer's. */
  async authenticate(key: string): Promise<ApiKeyContext | undefined> {
    if (!KEY_FORMAT.test(key)) return undefined;
    const hash = hashKey(key);
    const row = await this.keys.byHash(hash);
    if (!row || row.revoked || row.banned || !timingSafeEqual(row.key_hash, hash)) return undefined;
    if (row.stale) await this.keys.touch(row.id);
    return { keyId: row.id, developerId: row.developer_id, kind: row.kind };
  }
}
