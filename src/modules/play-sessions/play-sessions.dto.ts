import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { ID_DOC as ID, IdempotencyKeyProperty, IdProperty, SlugProperty } from '../../http/params';

export class CreatePlaySessionDto {
  @SlugProperty('The game to play')
  gameSlug!: string;

  @ApiPropertyOptional({ description: 'Owner or admin only: force a test-mode session (nothing is charged or stored)', example: false })
  @IsOptional()
  @IsBoolean()
  preview?: boolean;

  @IdProperty('With preview: true, the stored build to preview; default the current version, else the newest non-rejected upload', { optional: true })
  versionId?: string;
}

export class InsertCoinDto {
  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

class PlayerDto {
  @ApiProperty({ description: 'PlayerRef: stable per developer, different across developers', example: 'pr_0f1e2d3c4b5a69788796a5b4c3d2e1f0', pattern: '^pr_[0-9a-f]{32}$' })
  ref!: string;

  @ApiProperty({ example: 'Ada' })
  displayName!: string;
}

export class PlaySessionDto {
  @ApiProperty(ID)
  sessionId!: string;

  @ApiProperty(ID)
  gameId!: string;

  @ApiProperty({ description: 'Coins per credit, frozen for this session', example: 2, minimum: 1, maximum: 5 })
  coinsPerCredit!: number;

  @ApiProperty({ description: 'Wallet balance in coins', example: 20, minimum: 0 })
  balance!: number;

  @ApiProperty({ description: 'True: insertions are free and not recorded' })
  testMode!: boolean;

  @ApiProperty({ format: 'date-time', description: 'lastSeenAt + the idle timeout' })
  expiresAt!: Date;

  @ApiProperty({ type: PlayerDto })
  player!: PlayerDto;
}

export class HeartbeatDto {
  @ApiProperty(ID)
  sessionId!: string;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt!: Date;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: Date;
}

export class EndedPlaySessionDto {
  @ApiProperty(ID)
  sessionId!: string;

  @ApiProperty({ format: 'date-time', description: 'When the session ended (the original time on a repeat)' })
  endedAt!: Date;
}

export class InsertCoinResultDto {
  @ApiProperty({ description: 'The insertion; `test_...` in test mode (never verifiable)', example: '0b7f4c63-4a0e-4d36-9f5e-3f1d2c4b5a69', maxLength: 64 })
  insertionId!: string;

  @ApiProperty({ enum: [1], example: 1 })
  creditsGranted!: number;

  @ApiProperty({ description: 'Coins debited (0 in test mode)', example: 2, minimum: 0 })
  coinsSpent!: number;

  @ApiProperty({ description: 'Balance right after this debit (in a replay: as it was then)', example: 18, minimum: 0 })
  balance!: number;

  @ApiProperty()
  testMode!: boolean;

  @ApiProperty({ description: 'True when the key was already applied: the original answer, charged once' })
  replayed!: boolean;
}

class InsertionSummaryDto {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty({ example: 2, minimum: 1 })
  coins!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: Date;

  @ApiProperty({ description: 'When an admin voided the insertion (its coins went back to the player; it no longer counts in earnings); null otherwise', type: 'string', format: 'date-time', nullable: true, example: null })
  voidedAt!: Date | null;
}

export class PlaySessionSummaryDto {
  @ApiProperty(ID)
  id!: string;

  @ApiProperty(ID)
  gameId!: string;

  @ApiProperty(ID)
  gameVersionId!: string;

  @ApiProperty({ example: 'pr_0f1e2d3c4b5a69788796a5b4c3d2e1f0', pattern: '^pr_[0-9a-f]{32}$' })
  playerRef!: string;

  @ApiProperty()
  testMode!: boolean;

  @ApiProperty({ enum: ['active', 'idle', 'ended'], description: 'ended once ended; idle when timed out; else active' })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  startedAt!: Date;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt!: Date;

  @ApiProperty({ format: 'date-time', type: 'string', nullable: true })
  endedAt!: Date | null;

  @ApiProperty({ format: 'date-time', type: 'string', nullable: true, description: 'null unless status is active' })
  expiresAt!: Date | null;

  @ApiProperty({ minimum: 0, example: 4, description: 'Coins of the insertions not voided' })
  totalCoins!: number;

  @ApiProperty({ type: [InsertionSummaryDto], description: 'Oldest first, voided ones included (with voidedAt); empty for test-mode sessions' })
  insertions!: InsertionSummaryDto[];
}

export class InsertionVerificationDto {
  @ApiProperty({ enum: [true] })
  valid!: boolean;

  @ApiProperty(ID)
  insertionId!: string;

  @ApiProperty(ID)
  gameId!: string;

  @ApiProperty(ID)
  sessionId!: string;

  @ApiProperty({ example: 'pr_0f1e2d3c4b5a69788796a5b4c3d2e1f0', pattern: '^pr_[0-9a-f]{32}$' })
  playerRef!: string;

  @ApiProperty({ example: 2, minimum: 1 })
  coins!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: Date;

  @ApiProperty({ description: 'When an admin voided the insertion (its coins went back to the player; it no longer counts in earnings); null otherwise', type: 'string', format: 'date-time', nullable: true, example: null })
  voidedAt!: Date | null;
}
