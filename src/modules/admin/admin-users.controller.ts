import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { UserIdParamsDto } from '../../http/params';
import { Actor } from '../audit';
import type { AuditActor } from '../audit';
import { AccountsService } from '../identity';
import { AdminAuth } from '../../http/account-auth';
import { AdminUserResponseDto, UserResponseDto } from '../identity';
import { AdminUserView, UserModerationService } from '../identity';
import { AdminUsersDto, AdminUsersQueryDto, BanUserDto } from './admin.dto';

/** Finding users, verifying e-mails, bans (CONTRACT §4, §18). */
@ApiTags('admin')
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly moderation: UserModerationService,
  ) {}

  @Get()
  @AdminAuth()
  @ApiOperation({ summary: 'Find users', description: 'Users whose e-mail address starts with `query` or whose display name contains it (any case): the first 50, by e-mail address.' })
  @ApiOkResponse({ type: AdminUsersDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: query missing, empty or over 100 characters' })
  async search(@Query() query: AdminUsersQueryDto): Promise<{ users: AdminUserView[] }> {
    return { users: await this.moderation.search(query.query) };
  }

  @Post(':userId/verify-email')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark an account\'s e-mail as verified', description: 'Audited as `user.verify_email`; an address already verified changes nothing.' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown user' })
  async verifyEmail(@Actor() actor: AuditActor, @Param() params: UserIdParamsDto): Promise<UserResponseDto> {
    return { user: await this.accounts.verifyEmail(actor, params.userId) };
  }

  @Post(':userId/ban')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ban a user',
    description:
      'Revokes every login session of the user at once and for good (every instance refuses the cookies from then on; unbanning revives none). ' +
      'While banned, sign-in answers 403 ACCOUNT_BANNED after the password check and the user\'s API keys answer 401. Games stay as they are. ' +
      'Audited as `user.ban` with the reason; banning a banned user changes nothing and answers the first `bannedAt`.',
  })
  @ApiOkResponse({ type: AdminUserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: reason missing or over 200 characters, or id over 64 characters', 404: 'NOT_FOUND: unknown user', 409: 'CONFLICT: banning yourself' })
  async ban(@Actor() actor: AuditActor, @Param() params: UserIdParamsDto, @Body() body: BanUserDto): Promise<{ user: AdminUserView }> {
    return { user: await this.moderation.ban(actor, params.userId, body.reason) };
  }

  @Post(':userId/unban')
  @AdminAuth()
  @HttpCode(200)
  @ApiOperation({ summary: 'Lift a ban', description: 'The user may sign in again (their old sessions stay revoked) and their API keys work again. Audited as `user.unban`; unbanning a user who is not banned changes nothing.' })
  @ApiOkResponse({ type: AdminUserResponseDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: id over 64 characters', 404: 'NOT_FOUND: unknown user' })
  async unban(@Actor() actor: AuditActor, @Param() params: UserIdParamsDto): Promise<{ user: AdminUserView }> {
    return { user: await this.moderation.unban(actor, params.userId) };
  }
}
