import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class UnlockAchievementDto {
  @ApiProperty({ description: 'The achievement key defined for the game', minLength: 1, maxLength: 48, pattern: '^[a-z0-9][a-z0-9_-]{0,47}$', example: 'first-coin' })
  @IsString()
  @Length(1, 48)
  @Matches(/^[a-z0-9][a-z0-9_-]{0,47}$/, { message: 'use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit' })
  key!: string;
}

export class AchievementDefinitionDto {
  @ApiProperty({ example: 'first-coin' })
  key!: string;

  @ApiProperty({ example: 'First Coin' })
  name!: string;

  @ApiProperty({ example: 'Insert your first coin' })
  description!: string;

  @ApiProperty({ example: 'coin' })
  iconKey!: string;

  @ApiProperty()
  secret!: boolean;
}

export class RewardItemDto {
  @ApiProperty({ enum: ['achievement', 'level-up'], description: '`achievement` for the unlock; `level-up` when the +25 XP raised the arcade level' })
  kind!: string;

  @ApiProperty({ example: 'First Coin' })
  title!: string;

  @ApiProperty({ example: 'Achievement unlocked · +25 XP' })
  subtitle!: string;

  @ApiProperty({ description: 'An iconKey (spec §2.7)', example: 'coin' })
  icon!: string;
}

export class UnlockResultDto {
  @ApiProperty({ type: AchievementDefinitionDto, description: 'The current definition, never masked' })
  achievement!: AchievementDefinitionDto;

  @ApiProperty({ description: 'The player has it' })
  unlocked!: boolean;

  @ApiProperty({ description: 'false for a repeat' })
  newlyUnlocked!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Time of the first unlock; null in test mode' })
  unlockedAt!: string | null;

  @ApiProperty({ description: 'Preview session: nothing was stored, no XP' })
  testMode!: boolean;

  @ApiPropertyOptional({ type: [RewardItemDto], description: 'Celebrations for the host page (never forwarded to the game); empty for repeats' })
  rewards!: RewardItemDto[];
}
