import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminAuth, CurrentDeveloper, DeveloperAuth, DeveloperContext } from '../../http/account-auth';
import { ApiErrors } from '../../http/error-responses';
import { ReconciliationDto, ReconciliationQueryDto, StatementDto, StatementMonthParamsDto, StatementQueryDto } from './books.dto';
import { Reconciliation, ReconciliationService } from './reconciliation.service';
import { statementCsv } from './statement.rules';
import { Statement, StatementsService } from './statements.service';

/** The books (CONTRACT §22): developers' monthly statements and the admin's reconciliation. */
@ApiTags('books')
@Controller()
export class BooksController {
  constructor(
    private readonly statements: StatementsService,
    private readonly reconciliations: ReconciliationService,
  ) {}

  @Get('api/portal/statements/:month')
  @DeveloperAuth()
  @ApiOperation({
    summary: 'The developer\'s statement of a month (JSON or CSV)',
    description:
      'Every game of the developer: paid insertions made in the month (voided later or not), their coins, value and the developer\'s 70%, the earnings taken back by voids ' +
      'made in the month, and net = earned − voided; the payouts made in the month. A month before the developer existed: zeros. A closed month never changes. ' +
      '`?format=csv`: the same as RFC 4180 CSV (CRLF, quotes only where needed), header `game_id,slug,insertions,coins,gross_usd,earned_usd,voided_usd,net_usd`, ' +
      'a row per game and a row whose game_id is `total`.',
  })
  @ApiOkResponse({ type: StatementDto })
  @ApiProduces('application/json', 'text/csv')
  @ApiErrors({ 400: 'INVALID_REQUEST: month not YYYY-MM, a month after this one, or format not json or csv' })
  async statement(
    @CurrentDeveloper() developer: DeveloperContext,
    @Param() params: StatementMonthParamsDto,
    @Query() query: StatementQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Statement | string> {
    const statement = await this.statements.statement(developer.developerId, params.month);
    if (query.format !== 'csv') return statement;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="statement-${statement.month}.csv"`);
    return statementCsv(statement);
  }

  @Get('api/admin/reconciliation')
  @AdminAuth()
  @ApiOperation({
    summary: 'Reconcile the books over a period',
    description:
      'The period\'s flows (`from`, `to`: UTC days, inclusive; default the first of this month to today), the balances now, and the eight checks the books keep over all ' +
      'time, each `{ name, ok, details }` (the same checks `npm run check:invariants` runs). Coins as integers, money as exact decimal strings.',
  })
  @ApiOkResponse({ type: ReconciliationDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: from or to not a YYYY-MM-DD day, to after today, or to before from' })
  reconciliation(@Query() query: ReconciliationQueryDto): Promise<Reconciliation> {
    return this.reconciliations.reconcile(query);
  }
}
