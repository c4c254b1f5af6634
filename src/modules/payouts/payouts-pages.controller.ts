import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { h } from 'preact';
import { AppError } from '../../errors/app-error';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import { sendPage } from '../../http/pages/layout';
import { CurrentDeveloperViewer, DeveloperViewer, Page } from '../../http/pages/page-auth';
import { StatementSection, StatementsService } from '../books';
import { PayoutsPage } from './payouts-page';
import { PayoutsService } from './payouts.service';

/** `/developer/payouts` (CONTRACT §22): it reads through the service; its form calls PUT /api/portal/payout-method. */
@ApiTags('developer portal')
@Controller('developer')
export class PayoutsPagesController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly statements: StatementsService,
  ) {}

  @Get('payouts')
  @Page('developer', {
    summary: 'The developer\'s balance, payout method and payouts (HTML)',
    description: 'Balance, held, available and minimum payout; the "Payout method" form; the statement of a month; the payouts, newest first (`cursor`: an older page).',
  })
  @ApiQuery({ name: 'month', required: false, description: 'The statement\'s month, `YYYY-MM` (this month when missing, unreadable or later)', schema: { type: 'string', pattern: '^[1-9]\\d{3}-(0[1-9]|1[0-2])$' } })
  @ApiQuery({ name: 'cursor', required: false, description: 'An older page of payouts (an unreadable one shows the first page)', schema: { type: 'string', maxLength: 512 } })
  async page(
    @CurrentDeveloperViewer() viewer: DeveloperViewer,
    @Query('cursor') cursorParam: unknown,
    @Query('month') month: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const cursor = typeof cursorParam === 'string' && cursorParam.length > 0 && cursorParam.length <= 512 ? cursorParam : undefined;
    const [balance, page, statement] = await Promise.all([
      this.payouts.balance(viewer.developerId),
      this.firstPageIfUnreadable(viewer.developerId, cursor),
      this.statements.page(viewer.developerId, month),
    ]);
    const olderHref = page.nextCursor ? `/developer/payouts?cursor=${encodeURIComponent(page.nextCursor)}` : null;
    sendPage(res, h(PayoutsPage, { viewer, balance, payouts: page.payouts, olderHref, statement: h(StatementSection, { ...statement, action: '/developer/payouts' }) }));
  }

  private async firstPageIfUnreadable(developerId: string, cursor: string | undefined) {
    try {
      return await this.payouts.list(developerId, { limit: PAGE_LIMIT_DEFAULT, cursor });
    } catch (error) {
      if (cursor !== undefined && error instanceof AppError && error.code === 'INVALID_REQUEST') return this.payouts.list(developerId, { limit: PAGE_LIMIT_DEFAULT });
      throw error;
    }
  }
}
