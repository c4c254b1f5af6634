import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_PROPERTY } from '../wallet/wallet.dto';

const ID = { example: '3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d', maxLength: 64 };

export class CreatePlaySessionDto {
  @ApiProperty({ description: 'The game to play', example: 'coin-clicker', maxLength: 64, pattern: '^[a-z0-9-]+$' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[a-z0-9-]+$/, { message: 'gameSlug may hold only a-z, 0-9 and -' })
  gameSlug!: string;

  @ApiPropertyOptional({ description: 'Owner or admin only: force a test-mode session (nothing is charged or stored)', example: false })
  @IsOptional()
  @IsBoolean()
  preview?: boolean;

  @ApiPropertyOptional({ description: 'With preview: true, the stored build to preview; default the current version, else the newest non-rejected upload', ...ID })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  versionId?: string;
}

export class PlaySessionIdParamsDto {
  @ApiProperty({ description: 'Play session id', ...ID })
  @IsString()
  @MaxLength(64)
  id!: string;
}

export class InsertionIdParamsDto {
  @ApiProperty({ description: 'Insertion id', ...ID })
  @IsString()
  @MaxLength(64)
  insertionId!: string;
}

export class InsertCoinDto {
  @ApiProperty(IDEMPOTENCY_KEY_PROPERTY)
  @IsString()
  @Length(8, 128)
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotencyKey may hold only letters, digits and _ . : -' })
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

  @ApiProperty({ minimum: 0, example: 4 })
  totalCoins!: number;

  @ApiProperty({ type: [InsertionSummaryDto], description: 'Oldest first; empty for test-mode sessions' })
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
}
