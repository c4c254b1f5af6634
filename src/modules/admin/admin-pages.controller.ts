import { randomUUID } from 'node:crypto';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { AppError } from '../../errors/app-error';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import { sendPage, Viewer } from '../../http/pages/layout';
import { CurrentViewer, Page } from '../../http/pages/page-auth';
import { AuditService } from '../audit';
import { ReconciliationService } from '../books';
import { GamesService } from '../developer-portal';
import { UserModerationService } from '../identity';
import { ScoreModerationService } from '../scoring';
import { PayoutsService } from '../payouts';
import { AdminPage, AdminPageState, GAME_STATUSES } from './admin-page';

/** How many games the "Game" choice of the Scores section offers (the newest). */
const GAME_CHOICES = 100;
const TEXT_KEYS = ['review', 'gameQuery', 'games', 'user', 'game', 'scores', 'audit', 'payouts', 'booksFrom', 'booksTo', 'books'] as const;

/** The page's own query string, read leniently: a value that is not a short string (or a known status) is ignored. */
function stateOf(query: Record<string, unknown>): AdminPageState {
  const state: AdminPageState = {};
  const text = (value: unknown, max: number) => (typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : undefined);
  for (const key of TEXT_KEYS) state[key] = text(query[key], key === 'user' || key === 'gameQuery' ? 100 : 512);
  state.gameStatus = GAME_STATUSES.find((status) => status === query.gameStatus);
  return state;
}

/** A list read with a cursor from the address: an unreadable cursor (an old or edited link) shows the first page. */
async function firstPageIfUnreadable<T>(read: (cursor: string | undefined) => Promise<T>, cursor: string | undefined): Promise<T> {
  try {
    return await read(cursor);
  } catch (error) {
    if (cursor !== undefined && error instanceof AppError && error.code === 'INVALID_REQUEST') return read(undefined);
    throw error;
  }
}

/** The admin console's page (CONTRACT §17): it reads through the services; its forms call /api/admin. */
@ApiTags('admin')
@Controller('admin')
export class AdminPagesController {
  constructor(
    private readonly games: GamesService,
    private readonly users: UserModerationService,
    private readonly scores: ScoreModerationService,
    private readonly audit: AuditService,
    private readonly payouts: PayoutsService,
    private readonly reconciliations: ReconciliationService,
  ) {}

  @Get()
  @Page('admin', {
    summary: 'The admin console (HTML)',
    description:
      'Sections Review, Games, Users, Scores, Audit log, Payouts and Books over the admin API. The query string holds what each section shows: ' +
      '`review`, `games`, `scores`, `audit` and `payouts` (a list\'s cursor), `gameQuery` and `gameStatus` (Search games), `user` (Find a user), `game` (the game of Scores), ' +
      '`books=check` with `booksFrom` and `booksTo` (Check the books: the reconciliation of that period).',
  })
  async page(@CurrentViewer() viewer: Viewer, @Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const state = stateOf(query);
    const page = { limit: PAGE_LIMIT_DEFAULT };
    const [review, games, users, choices, scores, audit, payouts, books] = await Promise.all([
      firstPageIfUnreadable((cursor) => this.games.reviewList('pending', { ...page, cursor }), state.review),
      firstPageIfUnreadable((cursor) => this.games.adminList({ query: state.gameQuery, status: state.gameStatus }, { ...page, cursor }), state.games),
      state.user ? this.users.search(state.user) : null,
      this.games.adminList({}, { limit: GAME_CHOICES }),
      state.game ? this.scoresOf(state.game, state.scores) : null,
      firstPageIfUnreadable((cursor) => this.audit.list({}, { ...page, cursor }), state.audit),
      firstPageIfUnreadable((cursor) => this.payouts.adminList({ ...page, cursor }), state.payouts),
      state.books === 'check' ? this.booksOf(state.booksFrom, state.booksTo) : null,
    ]);
    sendPage(
      res,
      h(AdminPage, {
        viewer,
        state,
        review: { items: review.versions, nextCursor: review.nextCursor },
        games: { items: games.games, nextCursor: games.nextCursor },
        users,
        gameChoices: choices.games.map((game) => ({ gameId: game.gameId, title: game.title })),
        scores,
        audit: { items: audit.entries, nextCursor: audit.nextCursor },
        payouts: { items: payouts.payouts, nextCursor: payouts.nextCursor },
        books,
        newKey: () => `admin-${randomUUID()}`,
      }),
    );
  }

  /** "Check the books": the reconciliation of the period, or the API's message when it refuses it. */
  private async booksOf(from: string | undefined, to: string | undefined) {
    try {
      return await this.reconciliations.reconcile({ from, to });
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_REQUEST') return { error: error.message };
      throw error;
    }
  }

  private async scoresOf(gameId: string, cursor: string | undefined) {
    try {
      const page = await firstPageIfUnreadable((after) => this.scores.list(gameId, 'all', { limit: PAGE_LIMIT_DEFAULT, cursor: after }), cursor);
      return { items: page.scores, nextCursor: page.nextCursor };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return 'unknown' as const;
      throw error;
    }
  }
}
