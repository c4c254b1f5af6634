import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { isUuid } from '../../database/uuid';

export type ApiKeyKind = 'live' | 'test';

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
  /** True when lastUsedAt is unset or over a minute old. */
  stale: boolean;
}

const COLUMNS = `id, kind, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(developerId: string, kind: ApiKeyKind, name: string, prefix: string, keyHash: Buffer): Promise<ApiKeyRow> {
    return (await this.uow.one<ApiKeyRow>(
      `INSERT INTO api_keys (developer_id, kind, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [developerId, kind, name, prefix, keyHash],
    ))!;
  }

  list(developerId: string): Promise<ApiKeyRow[]> {
    return this.uow.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE developer_id = $1 ORDER BY created_at DESC, id DESC`, [developerId]);
  }

  /** Revokes once (a repeat keeps the first `revokedAt`); false when not the developer's key. */
  async revoke(developerId: string, keyId: string): Promise<boolean> {
    if (!isUuid(keyId)) return false;
    const rows = await this.uow.query(
      'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND developer_id = $2 RETURNING id',
      [keyId, developerId],
    );
    return rows.length === 1;
  }

  byHash(keyHash: Buffer): Promise<ApiKeyAuthRow | undefined> {
    return this.uow.one<ApiKeyAuthRow>(
      `SELECT id, developer_id, kind, key_hash, revoked_at IS NOT NULL AS revoked,
              coalesce(last_used_at < now() - interval '1 minute', true) AS stale
         FROM api_keys WHERE key_hash = $1`,
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
