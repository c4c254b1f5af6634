import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../database/domain-events';
import { UnitOfWork } from '../../database/unit-of-work';
import { NotFoundError } from '../../errors/app-error';
import { decodeCursor, pageOf } from '../../http/keyset-cursor';
import { AuditActor, AuditService } from '../audit';
import { AchievementRecord, AchievementRepository } from './achievement.repository';
import { GameSuspendedError, VersionNotApprovedError } from './developer-portal.errors';
import { GameRecord, GameRepository, GameStatus, ReviewRecord, VersionRecord, VersionStatus } from './game.repository';
import { thumbnailUrlOf } from './game-thumbnail.rules';

export type { GameRecord, GameStatus, VersionRecord, VersionStatus } from './game.repository';
export type { AchievementRecord } from './achievement.repository';

export const MAX_SCORE_LIMIT = 9_007_199_254_740_991;

export interface GameView {
  gameId: string;
  slug: string;
  title: string;
  /** Plain text with its line breaks; null when none (CONTRACT §17.2). */
  description: string | null;
  /** Where this service serves the game's thumbnail; null when none. */
  thumbnailUrl: string | null;
  coinsPerCredit: number;
  maxScore: number;
  status: GameStatus;
  currentVersionId: string | null;
  createdAt: Date;
}

export interface VersionView {
  versionId: string;
  label: string;
  entryUrl: string;
  status: VersionRecord['status'];
  createdAt: Date;
}

export type ReviewView = Omit<ReviewRecord, 'cursorAt'>;

export interface AdminGameView extends GameView {
  developerId: string;
  developerName: string;
}

export function toGameView(game: GameRecord): GameView {
  return {
    gameId: game.id,
    slug: game.slug,
    title: game.title,
    description: game.description === '' ? null : game.description,
    thumbnailUrl: thumbnailUrlOf(game),
    coinsPerCredit: game.coinsPerCredit,
    maxScore: game.maxScore,
    status: game.status,
    currentVersionId: game.currentVersionId,
    createdAt: game.createdAt,
  };
}

export function toVersionView(version: VersionRecord): VersionView {
  return { versionId: version.id, label: version.label, entryUrl: version.entryUrl, status: version.status, createdAt: version.createdAt };
}

const gameNotFound = () => new NotFoundError('No such game.');
const versionNotFound = () => new NotFoundError('No such version.');

/**
 * Games and versions: the developer's own (another developer's ids answer 404), the admin's
 * review and suspension, and read-only lookups for the other modules.
 */
@Injectable()
export class GamesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: DomainEvents,
    private readonly games: GameRepository,
    private readonly achievements: AchievementRepository,
    private readonly audit: AuditService,
  ) {}

  // Lookups for other modules (no ownership check).

  findById(gameId: string): Promise<GameRecord | undefined> {
    return this.games.byId(gameId);
  }

  findBySlug(slug: string): Promise<GameRecord | undefined> {
    return this.games.bySlug(slug);
  }

  /** For public reads that tolerate replication lag (the leaderboard): may come from a read replica. */
  findBySlugLagging(slug: string): Promise<GameRecord | undefined> {
    return this.games.bySlugLagging(slug);
  }

  findVersion(versionId: string): Promise<VersionRecord | undefined> {
    return this.games.versionById(versionId);
  }

  /** The build a preview plays when none is named and none is published: newest not rejected. */
  newestPlayableVersion(gameId: string): Promise<VersionRecord | undefined> {
    return this.games.newestPlayableVersion(gameId);
  }

  /** A game's versions with their review outcome, newest first (callers check ownership). */
  versionsOf(gameId: string): Promise<VersionRecord[]> {
    return this.games.listVersions(gameId);
  }

  /** An achievement definition by game and key, active or retired (callers check `status`). */
  findAchievement(gameId: string, key: string): Promise<AchievementRecord | undefined> {
    return this.achievements.byKey(gameId, key);
  }

  listAchievements(gameId: string): Promise<AchievementRecord[]> {
    return this.achievements.list(gameId);
  }

  // The developer's own games.

  /** The developer's game, or 404 NOT_FOUND for unknown and foreign ids alike. */
  async ownedGame(developerId: string, gameId: string, forUpdate = false): Promise<GameRecord> {
    const game = await this.games.byId(gameId, forUpdate);
    if (!game || game.developerId !== developerId) throw gameNotFound();
    return game;
  }

  async create(developerId: string, input: { slug: string; title: string; coinsPerCredit: number; maxScore?: number }): Promise<GameView> {
    return toGameView(await this.games.insert(developerId, { ...input, maxScore: input.maxScore ?? MAX_SCORE_LIMIT }));
  }

  async list(developerId: string): Promise<GameView[]> {
    return (await this.games.listByDeveloper(developerId)).map(toGameView);
  }

  /** The developer's games with their current version's label, for the portal's overview page. */
  listWithCurrentVersion(developerId: string): Promise<(GameRecord & { currentVersionLabel: string | null })[]> {
    return this.games.listWithCurrentVersion(developerId);
  }

  async get(developerId: string, gameId: string): Promise<GameView> {
    return toGameView(await this.ownedGame(developerId, gameId));
  }

  update(developerId: string, gameId: string, patch: { title?: string; coinsPerCredit?: number; maxScore?: number; description?: string | null }): Promise<GameView> {
    return this.uow.run(async () => {
      await this.ownedGame(developerId, gameId, true);
      return toGameView(await this.games.update(gameId, patch));
    });
  }

  addVersion(actor: AuditActor, developerId: string, gameId: string, input: { label: string; entryUrl: string }): Promise<VersionView> {
    return this.uow.run(async () => {
      const game = await this.ownedGame(developerId, gameId);
      const version = await this.games.insertVersion(game.id, input.label, input.entryUrl);
      await this.audit.record({ ...actor, action: 'version.add', targetId: version.id, details: { gameId: game.id, label: version.label, entryUrl: version.entryUrl } });
      return toVersionView(version);
    });
  }

  async listVersions(developerId: string, gameId: string): Promise<VersionView[]> {
    await this.ownedGame(developerId, gameId);
    return (await this.games.listVersions(gameId)).map(toVersionView);
  }

  /** Publishing the version already published changes nothing and records nothing. */
  publish(actor: AuditActor, developerId: string, gameId: string, versionId: string): Promise<GameView> {
    return this.uow.run(async () => {
      const game = await this.ownedGame(developerId, gameId, true);
      const version = await this.games.versionById(versionId);
      if (!version || version.gameId !== game.id) throw versionNotFound();
      if (game.status === 'suspended') throw new GameSuspendedError();
      if (version.status !== 'approved') throw new VersionNotApprovedError();
      if (game.status === 'published' && game.currentVersionId === version.id) return toGameView(game);
      await this.audit.record({ ...actor, action: 'game.publish', targetId: game.id, details: { versionId: version.id } });
      return this.statusChanged(await this.games.publish(game.id, version.id));
    });
  }

  unpublish(actor: AuditActor, developerId: string, gameId: string): Promise<GameView> {
    return this.uow.run(async () => {
      const game = await this.ownedGame(developerId, gameId, true);
      if (game.status === 'suspended') throw new GameSuspendedError();
      if (game.status === 'unpublished') return toGameView(game);
      await this.audit.record({ ...actor, action: 'game.unpublish', targetId: game.id });
      return this.statusChanged(await this.games.setStatus(game.id, 'unpublished'));
    });
  }

  // Administration.

  /**
   * Approves or rejects (a rejection with its reason). The same decision again, with the same
   * reason, changes nothing and records nothing. `actor` null: the demo world's start-up seeding,
   * which is nobody's action and is not audited.
   */
  reviewVersion(actor: AuditActor | null, versionId: string, decision: 'approved' | 'rejected', reason: string | null = null): Promise<VersionView> {
    return this.uow.run(async () => {
      const version = await this.games.versionById(versionId, true);
      if (!version) throw versionNotFound();
      const rejectReason = decision === 'rejected' ? reason : null;
      if (version.status === decision && version.rejectReason === rejectReason) return toVersionView(version);
      const reviewed = (await this.games.reviewVersion(version.id, decision, rejectReason))!;
      const action = decision === 'approved' ? 'version.approve' : 'version.reject';
      if (actor) await this.audit.record({ ...actor, action, targetId: version.id, reason: rejectReason, details: { gameId: version.gameId } });
      return toVersionView(reviewed);
    });
  }

  /** `reason`: the admin's why, kept in the audit entry (null: none given). */
  suspend(actor: AuditActor, gameId: string, reason: string | null = null): Promise<GameView> {
    return this.uow.run(async () => {
      const game = await this.games.byId(gameId, true);
      if (!game) throw gameNotFound();
      if (game.status === 'suspended') return toGameView(game);
      await this.audit.record({ ...actor, action: 'game.suspend', targetId: game.id, reason, details: { previousStatus: game.status } });
      return this.statusChanged(await this.games.setStatus(game.id, 'suspended'));
    });
  }

  /** Lifting a suspension leaves the game unpublished: the developer publishes again. */
  unsuspend(actor: AuditActor, gameId: string): Promise<GameView> {
    return this.uow.run(async () => {
      const game = await this.games.byId(gameId, true);
      if (!game) throw gameNotFound();
      if (game.status !== 'suspended') return toGameView(game);
      await this.audit.record({ ...actor, action: 'game.unsuspend', targetId: game.id });
      return this.statusChanged(await this.games.setStatus(game.id, 'unpublished'));
    });
  }

  /** The review queue and its history (CONTRACT §18); `cursor` is the previous page's `nextCursor`. */
  async reviewList(status: VersionStatus, options: { limit: number; cursor?: string }): Promise<{ versions: ReviewView[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['timestamp', 'uuid'] as const);
    const page = await this.games.reviewPage(status, after && { createdAt: after[0], id: after[1] }, options.limit + 1);
    const { rows, nextCursor } = pageOf(page, options.limit, (row) => [row.cursorAt, row.versionId]);
    return { versions: rows.map(({ cursorAt: _cursorAt, ...version }) => version), nextCursor };
  }

  /** Every developer's games for the admin console, newest first. */
  async adminList(filter: { query?: string; status?: GameStatus }, options: { limit: number; cursor?: string }): Promise<{ games: AdminGameView[]; nextCursor: string | null }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, ['timestamp', 'uuid'] as const);
    const page = await this.games.adminPage(filter, after && { createdAt: after[0], id: after[1] }, options.limit + 1);
    const { rows, nextCursor } = pageOf(page, options.limit, (row) => [row.cursorAt, row.id]);
    return { games: rows.map((row) => ({ ...toGameView(row), developerId: row.developerId, developerName: row.developerName })), nextCursor };
  }

  /** In-process caches (the public leaderboard) drop the game once the change has committed. */
  private statusChanged(game: GameRecord): GameView {
    this.events.publish('game.status-changed', { gameId: game.id });
    return toGameView(game);
  }
}
