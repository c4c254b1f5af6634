import type { UnitOfWork } from '../../database/unit-of-work';

/** A developer profile as its owner's data export shows it (CONTRACT §20): keys without their hash (the secret is never stored). */
export interface DeveloperExport {
  id: string;
  displayName: string;
  createdAt: Date;
  games: Record<string, unknown>[];
  versions: Record<string, unknown>[];
  achievements: Record<string, unknown>[];
  keys: { id: string; kind: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }[];
}

/** The export's `developer` part but earnings (CONTRACT §20), or null when the account has no developer profile. */
export async function developerExport(uow: UnitOfWork, accountId: string): Promise<DeveloperExport | null> {
  const developer = await uow.one<{ id: string; displayName: string; createdAt: Date }>(
    'SELECT id, display_name AS "displayName", created_at AS "createdAt" FROM developers WHERE account_id = $1',
    [accountId],
  );
  if (!developer) return null;
  const games = await uow.query(
    `SELECT id, slug, title, description, coins_per_credit AS "coinsPerCredit", max_score::text AS "maxScore", status,
            current_version_id AS "currentVersionId", first_published_at AS "firstPublishedAt", created_at AS "createdAt", updated_at AS "updatedAt"
       FROM games WHERE developer_id = $1 ORDER BY created_at, id`,
    [developer.id],
  );
  const versions = await uow.query(
    `SELECT v.id, v.game_id AS "gameId", v.label, v.entry_url AS "entryUrl", v.status, v.reject_reason AS "rejectReason",
            v.created_at AS "createdAt", v.reviewed_at AS "reviewedAt"
       FROM game_versions v JOIN games g ON g.id = v.game_id WHERE g.developer_id = $1 ORDER BY v.created_at, v.id`,
    [developer.id],
  );
  const achievements = await uow.query(
    `SELECT a.id, a.game_id AS "gameId", a.key, a.name, a.description, a.icon_key AS "iconKey", a.secret, a.status, a.position,
            a.created_at AS "createdAt", a.updated_at AS "updatedAt"
       FROM achievements a JOIN games g ON g.id = a.game_id WHERE g.developer_id = $1 ORDER BY a.game_id, a.position, a.id`,
    [developer.id],
  );
  const keys = await uow.query<DeveloperExport['keys'][number]>(
    `SELECT id, kind, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
       FROM api_keys WHERE developer_id = $1 ORDER BY created_at, id`,
    [developer.id],
  );
  return { ...developer, games, versions, achievements, keys };
}

/** For account erasure (CONTRACT §20): whether the account's developer has a published game (then 409), and its live API keys. */
export async function developerForErasure(uow: UnitOfWork, accountId: string): Promise<{ developerId: string; published: boolean; liveKeyIds: string[] } | null> {
  const row = await uow.one<{ id: string; published: boolean; live_key_ids: string[] }>(
    `SELECT d.id, EXISTS (SELECT 1 FROM games g WHERE g.developer_id = d.id AND g.status = 'published') AS published,
            ARRAY(SELECT k.id::text FROM api_keys k WHERE k.developer_id = d.id AND k.revoked_at IS NULL ORDER BY k.created_at) AS live_key_ids
       FROM developers d WHERE d.account_id = $1`,
    [accountId],
  );
  return row ? { developerId: row.id, published: row.published, liveKeyIds: row.live_key_ids } : null;
}

/** Account erasure (CONTRACT §20): the developer profile keeps its id (games, earnings and audit entries name it) but not the name its owner chose. */
export async function eraseDeveloperName(uow: UnitOfWork, developerId: string): Promise<void> {
  uow.requireTransaction();
  await uow.query(`UPDATE developers SET display_name = 'Erased developer' WHERE id = $1`, [developerId]);
}
