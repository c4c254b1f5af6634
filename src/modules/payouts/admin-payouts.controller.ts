import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors } from '../../http/error-responses';
import { AdminAuth } from '../../http/account-auth';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { PayoutOutcomesService } from './payout-outcomes.service';
import { PayoutRunService } from './payout-run.service';
import { AdminPayoutDto, CreatePayoutRunDto, FailPayoutDto, MarkPaidDto, PayoutIdParamsDto, PayoutRunDto } from './payouts.dto';
import { AdminPayoutView, adminPayoutView } from './payouts.views';

/** Payout runs and their outcomes (CONTRACT §22), each audited. */
@ApiTags('admin')
@Controller('api/admin')
export class AdminPayoutsController {
  constructor(
    private readonly runs: PayoutRunService,
    private readonly outcomes: PayoutOutcomesService,
  ) {}

  @Post('payout-runs')
  @AdminAuth()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Run payouts',
    description:
      'One pending payout of its whole `availableUsd` (floored to a cent) for every developer with a payout method and at least `PAYOUT_MINIMUM_USD` available, each made with the developer\'s ledger locked, ' +
      'so no payout ever exceeds what is available whatever runs at the same time. With `stripe` the transfer is made at once (idempotency key: the payout id): paid when Stripe makes it, ' +
      'failed (amount written back) when Stripe refuses it, pending when Stripe cannot be reached (the next run asks again); with `sandbox` the payout waits for an admin. ' +
      'The same `idempotencyKey` again: 200 and the same run. Audited as `payout.run`.',
  })
  @ApiCreatedResponse({ type: PayoutRunDto, description: 'A new run' })
  @ApiOkResponse({ type: PayoutRunDto, description: 'The run this key already made' })
  @ApiErrors({ 400: 'INVALID_REQUEST' })
  async run(@Actor() actor: AuditActor, @Body() body: CreatePayoutRunDto, @Res({ passthrough: true }) res: Response): Promise<{ runId: string; payouts: AdminPayoutView[] }> {
    const result = await this.runs.run(actor, body.idempotencyKey);
    res.status(result.created ? 201 : 200);
    return { runId: result.runId, payouts: result.payouts.map(adminPayoutView) };
  }

  @Post('payouts/:payoutId/mark-paid')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a payout paid', description: 'A paid payout: 200 unchanged (its first reference). A failed one: 409 CONFLICT. Audited as `payout.mark_paid`.' })
  @ApiOkResponse({ type: AdminPayoutDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a reference that is not 1 to 200 characters, or an id over 64 characters', 404: 'NOT_FOUND: unknown payout', 409: 'CONFLICT: the payout failed' })
  async markPaid(@Actor() actor: AuditActor, @Param() params: PayoutIdParamsDto, @Body() body: MarkPaidDto): Promise<AdminPayoutView> {
    return adminPayoutView(await this.outcomes.markPaid(actor, params.payoutId, body.reference));
  }

  @Post('payouts/:payoutId/fail')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mark a payout failed',
    description: 'Its amount goes back to the developer\'s balance (ledger kind `payout_reversal`) in the same transaction. A failed payout: 200 unchanged. A paid one: 409 CONFLICT. Audited as `payout.fail`.',
  })
  @ApiOkResponse({ type: AdminPayoutDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a reason that is not 1 to 200 characters, or an id over 64 characters', 404: 'NOT_FOUND: unknown payout', 409: 'CONFLICT: the payout was paid' })
  async fail(@Actor() actor: AuditActor, @Param() params: PayoutIdParamsDto, @Body() body: FailPayoutDto): Promise<AdminPayoutView> {
    return adminPayoutView(await this.outcomes.fail(actor, params.payoutId, body.reason));
  }
}
