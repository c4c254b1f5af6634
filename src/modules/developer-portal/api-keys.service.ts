import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../errors/app-error';
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
  constructor(private readonly keys: ApiKeyRepository) {}

  async create(developerId: string, kind: ApiKeyKind, name: string): Promise<CreatedApiKey> {
    const key = `svc_${kind}_${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, 12);
    const row = await this.keys.insert(developerId, kind, name, prefix, hashKey(key));
    return { id: row.id, kind: row.kind, name: row.name, key, prefix: row.prefix, createdAt: row.createdAt };
  }

  list(developerId: string): Promise<ApiKeyRow[]> {
    return this.keys.list(developerId);
  }

  async revoke(developerId: string, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(developerId, keyId))) throw new NotFoundError('No such API key.');
  }

  /** The key's owner and kind, or undefined for a malformed, unknown or revoked key. */
  async authenticate(key: string): Promise<ApiKeyContext | undefined> {
    if (!KEY_FORMAT.test(key)) return undefined;
    const hash = hashKey(key);
    const row = await this.keys.byHash(hash);
    if (!row || row.revoked || !timingSafeEqual(row.key_hash, hash)) return undefined;
    if (row.stale) await this.keys.touch(row.id);
    return { keyId: row.id, developerId: row.developer_id, kind: row.kind };
  }
}
