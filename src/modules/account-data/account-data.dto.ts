import { ApiProperty } from '@nestjs/swagger';
import { Equals, IsString, MaxLength } from 'class-validator';

const dateTime = { type: 'string', format: 'date-time' } as const;
const row = (description: string) => ({ type: 'array', items: { type: 'object', additionalProperties: true }, description }) as const;

/** `POST /api/me/delete` (CONTRACT §20). */
export class DeleteAccountDto {
  @ApiProperty({ description: 'The password the account signs in with today', example: 'correct horse battery', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  currentPassword!: string;

  @ApiProperty({ description: 'Exactly `DELETE`: the person means it', enum: ['DELETE'], example: 'DELETE' })
  @IsString()
  @Equals('DELETE', { message: 'confirm must be exactly "DELETE"' })
  confirm!: string;
}

/** `GET /api/me/export` (CONTRACT §20): everything kept about the account; never a password hash, token hash, key secret or TOTP secret. */
export class AccountDataExportDto {
  @ApiProperty({ ...dateTime, description: "When the export was read (the file name's date is its UTC date)" })
  exportedAt!: Date;

  @ApiProperty({
    type: 'object',
    description: 'The account',
    properties: {
      id: { type: 'string', format: 'uuid' },
      email: { type: 'string' },
      displayName: { type: 'string' },
      emailVerified: { type: 'boolean' },
      isAdmin: { type: 'boolean' },
      createdAt: dateTime,
      bannedAt: { ...dateTime, nullable: true },
    },
  })
  account!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'The player profile; null when the account has none',
    properties: { id: { type: 'string', format: 'uuid' }, displayName: { type: 'string' }, initials: { type: 'string', nullable: true }, xp: { type: 'integer' }, createdAt: dateTime },
  })
  player!: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'The wallet: its balance and every ledger entry, oldest first; null without a player',
    properties: { balance: { type: 'integer' }, entries: row('Ledger entries: id, seq, delta, balanceAfter, kind, reason, purchaseId, createdAt') },
  })
  wallet!: Record<string, unknown> | null;

  @ApiProperty(row('Purchases, oldest first: id, packId, coins, priceMills, provider, status, createdAt, updatedAt'))
  purchases!: Record<string, unknown>[];

  @ApiProperty(row('Saved scores, oldest first, removed ones included: id, gameId, playSessionId, score (digit string), source, initials, achievedAt, removedAt'))
  scores!: Record<string, unknown>[];

  @ApiProperty(row('Achievement unlocks, oldest first: achievementId, playSessionId, unlockedAt'))
  achievements!: Record<string, unknown>[];

  @ApiProperty(row('Play sessions, oldest first: id, gameId, gameVersionId, playerRef, testMode, startedAt, lastSeenAt, endedAt'))
  playSessions!: Record<string, unknown>[];

  @ApiProperty(row('Login sessions still stored, newest first: id, createdAt, expiresAt, revokedAt, lastSeenAt, userAgent'))
  loginSessions!: Record<string, unknown>[];

  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'The developer profile; null when the account has none. API keys without their secret or hash; webhook endpoints without their signing secrets',
    properties: {
      id: { type: 'string', format: 'uuid' },
      displayName: { type: 'string' },
      createdAt: dateTime,
      games: row('Games'),
      versions: row('Game versions'),
      achievements: row('Achievement definitions'),
      keys: row('API keys: id, kind, name, prefix, createdAt, lastUsedAt, revokedAt'),
      earnings: row('Earnings, one per paid insertion: insertionId, gameId, coins, grossMills, earnedMills, createdAt, voided'),
      payoutMethod: {
        type: 'object',
        additionalProperties: true,
        nullable: true,
        description: 'Where payouts go (CONTRACT §22): kind (sandbox or stripe), accountId (the Stripe Connect account, or null), updatedAt; null when none is set',
      },
      payouts: row('Payouts, oldest first: id, runId, amountMills, status, methodKind, methodAccountId, reference, failureReason, createdAt, paidAt, failedAt'),
      webhooks: row('Webhook endpoints, deleted ones included, oldest first: id, url, events, description, enabled, createdAt, lastSuccessAt, deletedAt'),
    },
  })
  developer!: Record<string, unknown> | null;
}
