import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { PAGE_LIMIT_DEFAULT } from '../../http/params';
import { AuditEntry, AuditService } from '../audit';
import { AdminAuth } from '../../http/account-auth';
import { AuditPageDto, AuditQueryDto } from './admin.dto';

/** Reading the audit log (CONTRACT §18). */
@ApiTags('admin')
@Controller('api/admin/audit')
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @AdminAuth()
  @ApiOperation({
    summary: 'The audit log, newest first',
    description:
      'One entry per admin action and per listed developer action (key created or revoked, game published or unpublished, version added), written in the ' +
      'same transaction as the change. `actorId` and `targetId` filter; cursor paging: pass `nextCursor` as `cursor`.',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: a bad parameter, or an unreadable cursor' })
  list(@Query() query: AuditQueryDto): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    return this.audit.list({ actorId: query.actorId, targetId: query.targetId }, { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor });
  }
}
