import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { likeLiteral, searchPlannedWithValues } from '../../database/search';
import { isUuid } from '../../database/uuid';
import { cursorTimestamp } from '../../http/keyset-cursor';
import { isUniqueViolation } from '../../errors/database-errors';
import { SlugTakenError } from './developer-portal.errors';

import type { GameStatus } from './game.entity';
import type { VersionStatus } from './game-version.entity';

export type { GameStatus } from './game.entity';
export type { VersionStatus } from './game-version.entity';

/** A game as other modules see it. */
export interface GameRecord {
  id: string;
  developerId: string;
  slug: string;
  title: string;
  /** Plain text, '' when none (CONTRACT §17.2). */
  description: string;
  /** The stored thumbnail's hash (its address names it: game-thumbnail.rules.ts), null when none. */
  thumbnailHash: string | null;
  coinsPerCredit: number;
  maxScore: number;
  status: GameStatus;
  currentVersionId: string | null;
  firstPublishedAt: Date | null;
  createdAt: Date;
}

export interface VersionRecord {
  id: string;
  gameId: string;
  label: string;
  entryUrl: string;
  status: VersionStatus;
  rejectReason: string | null;
  createdAt: Date;
}

/** The thumbnail's hash by the primary key of game_thumbnails (the image itself is never read with a game). */
const thumbnailHashOf = (t: string) => `(SELECT th.hash FROM game_thumbnails th WHERE th.game_id = ${t || 'games.'}id) AS "thumbnailHash"`;

const gameColumns = (t = '') => `${t}id, ${t}developer_id AS "developerId", ${t}slug, ${t}title, ${t}description, ${thumbnailHashOf(t)},
  ${t}coins_per_credit AS "coinsPerCredit", ${t}max_score::float8 AS "maxScore", ${t}status, ${t}current_version_id AS "currentVersionId",
  ${t}first_published_at AS "firstPublishedAt", ${t}created_at AS "createdAt"`;
const GAME_COLUMNS = gameColumns();

const VERSION_COLUMNS = `id, game_id AS "gameId", label, entry_url AS "entryUrl", status,
  reject_reason AS "rejectReason", created_at AS "createdAt"`;

/** A version waiting for (or past) review, with its game (CONTRACT §18). */
export interface ReviewRecord {
  versionId: string;
  gameId: string;
  gameSlug: string;
  gameTitle: string;
  label: string;
  entryUrl: string;
  status: VersionStatus;
  reason: string | null;
  createdAt: Date;
  /** `createdAt` with microseconds, for the cursor. */
  cursorAt: string;
}

/** A game as the admin console lists it. */
export interface AdminGameRecord extends GameRecord {
  developerName: string;
  cursorAt: string;
}

/** Where a keyset page starts: after the row with this creation time and id. */
export interface CreatedAfter {
  createdAt: string;
  id: string;
}

/** Games and their versions. Non-uuid ids find nothing instead of reaching PostgreSQL. */
@Injectable()
export class GameRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(developerId: string, input: { slug: string; title: string; coinsPerCredit: number; maxScore: number }): Promise<GameRecord> {
    try {
      return (await this.uow.one<GameRecord>(
        `INSERT INTO games (developer_id, slug, title, coins_per_credit, max_score) VALUES ($1, $2, $3, $4, $5)
         RETURNING ${GAME_COLUMNS}`,
        [developerId, input.slug, input.title, input.coinsPerCredit, input.maxScore],
      ))!;
    } catch (error) {
      if (isUniqueViolation(error, 'games_slug_key')) throw new SlugTakenError(input.slug);
      throw error;
    }
  }

  listByDeveloper(developerId: string): Promise<GameRecord[]> {
    return this.uow.query<GameRecord>(`SELECT ${GAME_COLUMNS} FROM games WHERE developer_id = $1 ORDER BY created_at DESC, id DESC`, [developerId]);
  }

  /** The developer's games, newest first, each with its current version's label (null before publishing). */
  listWithCurrentVersion(developerId: string): Promise<(GameRecord & { currentVersionLabel: string | null })[]> {
    return this.uow.query(
      `SELECT ${gameColumns('g.')}, v.label AS "currentVersionLabel"
         FROM games g LEFT JOIN game_versions v ON v.id = g.current_version_id
        WHERE g.developer_id = $1
        ORDER BY g.created_at DESC, g.id DESC`,
      [developerId],
    );
  }

  async byId(gameId: string, forUpdate = false): Promise<GameRecord | undefined> {
    if (!isUuid(gameId)) return undefined;
    return this.uow.one<GameRecord>(`SELECT ${GAME_COLUMNS} FROM games WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [gameId]);
  }

  bySlug(slug: string): Promise<GameRecord | undefined> {
    return this.uow.one<GameRecord>(`SELECT ${GAME_COLUMNS} FROM games WHERE slug = $1`, [slug]);
  }

  /** `bySlug` for public pages that tolerate replication lag (a read replica when configured). */
  bySlugLagging(slug: string): Promise<GameRecord | undefined> {
    return this.uow.oneReplica<GameRecord>(`SELECT ${GAME_COLUMNS} FROM games WHERE slug = $1`, [slug]);
  }

  /** `description`: undefined leaves it, null or '' removes it. */
  async update(gameId: string, patch: { title?: string; coinsPerCredit?: number; maxScore?: number; description?: string | null }): Promise<GameRecord> {
    return (await this.uow.one<GameRecord>(
      `UPDATE games SET title = coalesce($2, title), coins_per_credit = coalesce($3, coins_per_credit),
              max_score = coalesce($4, max_score), description = CASE WHEN $5::boolean THEN coalesce($6, '') ELSE description END,
              updated_at = now()
        WHERE id = $1 RETURNING ${GAME_COLUMNS}`,
      [gameId, patch.title ?? null, patch.coinsPerCredit ?? null, patch.maxScore ?? null, patch.description !== undefined, patch.description ?? null],
    ))!;
  }

  async publish(gameId: string, versionId: string): Promise<GameRecord> {
    return (await this.uow.one<GameRecord>(
      `UPDATE games SET status = 'published', current_version_id = $2,
              first_published_at = coalesce(first_published_at, now()), updated_at = now()
        WHERE id = $1 RETURNING ${GAME_COLUMNS}`,
      [gameId, versionId],
    ))!;
  }

  async setStatus(gameId: string, status: GameStatus): Promise<GameRecord> {
    return (await this.uow.one<GameRecord>(`UPDATE games SET status = $2, updated_at = now() WHERE id = $1 RETURNING ${GAME_COLUMNS}`, [
      gameId,
      status,
    ]))!;
  }

  async insertVersion(gameId: string, label: string, entryUrl: string): Promise<VersionRecord> {
    return (await this.uow.one<VersionRecord>(
      `INSERT INTO game_versions (game_id, label, entry_url) VALUES ($1, $2, $3) RETURNING ${VERSION_COLUMNS}`,
      [gameId, label, entryUrl],
    ))!;
  }

  listVersions(gameId: string): Promise<VersionRecord[]> {
    return this.uow.query<VersionRecord>(`SELECT ${VERSION_COLUMNS} FROM game_versions WHERE game_id = $1 ORDER BY created_at DESC, id DESC`, [
      gameId,
    ]);
  }

  async versionById(versionId: string, forUpdate = false): Promise<VersionRecord | undefined> {
    if (!isUuid(versionId)) return undefined;
    return this.uow.one<VersionRecord>(`SELECT ${VERSION_COLUMNS} FROM game_versions WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [versionId]);
  }

  /**
   * Versions of one review status with their games: pending oldest first (the queue), approved and
   * rejected newest first. One range scan of game_versions_review_idx either way.
   */
  reviewPage(status: VersionStatus, after: CreatedAfter | undefined, limit: number): Promise<ReviewRecord[]> {
    const [order, compare] = status === 'pending' ? ['ASC', '>'] : ['DESC', '<'];
    return this.uow.query<ReviewRecord>(
      `SELECT v.id AS "versionId", v.game_id AS "gameId", g.slug AS "gameSlug", g.title AS "gameTitle", v.label, v.entry_url AS "entryUrl",
              v.status, v.reject_reason AS reason, v.created_at AS "createdAt", ${cursorTimestamp('v.created_at')} AS "cursorAt"
         FROM game_versions v JOIN games g ON g.id = v.game_id
        WHERE v.status = $2 ${after ? `AND (v.created_at, v.id) ${compare} ($3::timestamptz, $4::uuid)` : ''}
        ORDER BY v.created_at ${order}, v.id ${order} LIMIT $1`,
      after ? [limit, status, after.createdAt, after.id] : [limit, status],
    );
  }

  /**
   * Every game, newest first, optionally of one status and whose slug or title contains `query`
   * (without regard to case): games_created_idx or games_status_created_idx give the order, the
   * trigram indexes on slug and title find rare matches. A search is planned with its pattern
   * (searchPlannedWithValues: a generic plan cannot tell a rare match from a common one).
   */
  adminPage(filter: { query?: string; status?: GameStatus }, after: CreatedAfter | undefined, limit: number): Promise<AdminGameRecord[]> {
    const values: unknown[] = [limit];
    const conditions: string[] = [];
    if (filter.status !== undefined) {
      values.push(filter.status);
      conditions.push(`g.status = $${values.length}`);
    }
    if (filter.query !== undefined) {
      values.push(likeLiteral(filter.query));
      conditions.push(`(g.slug LIKE '%' || lower($${values.length}) || '%' OR lower(g.title) LIKE '%' || lower($${values.length}) || '%')`);
    }
    if (after) {
      values.push(after.createdAt, after.id);
      conditions.push(`(g.created_at, g.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
    }
    const sql = `SELECT ${gameColumns('g.')}, d.display_name AS "developerName", ${cursorTimestamp('g.created_at')} AS "cursorAt"
         FROM games g JOIN developers d ON d.id = g.developer_id
        ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
        ORDER BY g.created_at DESC, g.id DESC LIMIT $1`;
    return filter.query === undefined ? this.uow.query<AdminGameRecord>(sql, values) : searchPlannedWithValues<AdminGameRecord>(this.uow, sql, values);
  }

  newestPlayableVersion(gameId: string): Promise<VersionRecord | undefined> {
    return this.uow.one<VersionRecord>(
      `SELECT ${VERSION_COLUMNS} FROM game_versions WHERE game_id = $1 AND status <> 'rejected' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [gameId],
    );
  }

  async reviewVersion(versionId: string, status: VersionStatus, reason: string | null): Promise<VersionRecord | undefined> {
    if (!isUuid(versionId)) return undefined;
    return this.uow.one<VersionRecord>(
      `UPDATE game_versions SET status = $2, reject_reason = $3, reviewed_at = now() WHERE id = $1 RETURNING ${VERSION_COLUMNS}`,
      [versionId, status, reason],
    );
  }
}
