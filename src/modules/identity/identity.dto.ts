import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { NoInvisibleCharacters } from '../../http/visible-text';

const DISPLAY_NAME = {
  description: 'Name shown to others, 1 to 32 characters, none of them invisible (no zero-width or direction-control characters)',
  example: 'Ada',
  minLength: 1,
  maxLength: 32,
};

export class SignUpDto {
  @ApiProperty({
    description:
      'E-mail address; a verification link is sent to it. Compatibility forms are folded (NFKC: a fullwidth ｐ is p) and case is ignored; invisible or formatting characters are refused',
    example: 'ada@example.com',
    maxLength: 254,
  })
  @IsEmail()
  @MaxLength(254)
  @NoInvisibleCharacters()
  email!: string;

  @ApiProperty({ description: 'Password, 8 to 128 characters', example: 'correct horse battery', minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128)
  password!: string;

  @ApiProperty(DISPLAY_NAME)
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'use at least one character that is not a space' })
  @NoInvisibleCharacters({ emojiPresentation: true })
  displayName!: string;

  // No `default` in the schema: generated clients would then require the field (issue 14; CONTRACT §2: optional).
  @ApiPropertyOptional({ description: 'Also create the player profile and wallet (default true)', example: true })
  @IsOptional()
  @IsBoolean()
  linkPlayer?: boolean;
}

export class LogInDto {
  @ApiProperty({ description: 'E-mail address of the account', example: 'ada@example.com', maxLength: 254 })
  @IsString()
  @Length(1, 254)
  email!: string;

  @ApiProperty({ description: 'Password', example: 'correct horse battery', maxLength: 128 })
  @IsString()
  @Length(1, 128)
  password!: string;
}

export class LinkPlayerDto {
  @ApiProperty(DISPLAY_NAME)
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'use at least one character that is not a space' })
  @NoInvisibleCharacters({ emojiPresentation: true })
  displayName!: string;
}

export class VerifyEmailDto {
  @ApiProperty({ description: 'The token from the verification link', example: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c', maxLength: 128 })
  @IsString()
  @Length(1, 128)
  token!: string;
}

export class ResendVerificationResultDto {
  @ApiProperty({ description: 'Whether a mail was sent: false when the e-mail is verified already', example: true })
  sent!: boolean;
}

export class UserDto {
  @ApiProperty({ description: 'Account id', example: '6f1c2b1e-8a57-4f0e-9a43-0c1f3f8d2a11' })
  id!: string;

  @ApiProperty({ example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ description: 'Whether the e-mail address was verified' })
  emailVerified!: boolean;

  @ApiProperty({ example: 'Ada' })
  displayName!: string;

  @ApiProperty({ description: 'player (linked), developer, admin', enum: ['player', 'developer', 'admin'], isArray: true, example: ['player'] })
  roles!: string[];

  @ApiProperty({ description: 'Whether a player profile and wallet are linked' })
  linked!: boolean;
}

export class UserResponseDto {
  @ApiProperty({ type: UserDto })
  user!: UserDto;
}

/** A user as the admin console shows it (CONTRACT §18). */
export class AdminUserDto extends UserDto {
  @ApiProperty({ description: 'Wallet balance in coins; null when not linked', type: 'integer', nullable: true, minimum: 0, example: 20 })
  balance!: number | null;

  @ApiProperty({ description: 'When the user was banned; null when not banned', type: 'string', format: 'date-time', nullable: true, example: null })
  bannedAt!: Date | null;

  @ApiProperty({ description: 'When a payment dispute or an admin froze the wallet; null when not frozen', type: 'string', format: 'date-time', nullable: true, example: null })
  walletFrozenAt!: Date | null;
}

export class AdminUserResponseDto {
  @ApiProperty({ type: AdminUserDto })
  user!: AdminUserDto;
}

export class MeDto extends UserDto {
  @ApiProperty({ description: 'Experience points (0 when not linked)', example: 50, minimum: 0, type: 'integer' })
  xp!: number;

  @ApiProperty({ description: 'Arcade level: 1 + floor(xp / 100)', example: 1, minimum: 1, type: 'integer' })
  level!: number;

  @ApiProperty({ description: 'Wallet balance in coins; null when not linked', type: 'integer', nullable: true, minimum: 0, example: 20 })
  balance!: number | null;

  @ApiProperty({ description: 'Saved high-score initials; null when none or not linked', type: 'string', nullable: true, example: 'ADA', pattern: '^[A-Z]{3}$' })
  initials!: string | null;
}
