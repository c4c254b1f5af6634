import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

const CODE_PATTERN = /^\s*(\d{6}|[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5})\s*$/;
const CODE_DESCRIPTION = 'The 6-digit code of the authenticator app now, or an unused recovery code (`xxxxx-xxxxx`)';

/** `POST /api/me/2fa/setup`: the only answer that ever holds the secret (CONTRACT §20). */
export class TwoFactorSetupDto {
  @ApiProperty({ description: 'The new TOTP secret, base32 (RFC 6238: SHA-1, 6 digits, 30-second steps); not in force until enabled', example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
  secret!: string;

  @ApiProperty({
    description: 'The secret as an `otpauth://` URI for authenticator apps (issuer "Arcade Coin Service", label the account e-mail)',
    example: 'otpauth://totp/Arcade%20Coin%20Service:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Arcade%20Coin%20Service',
  })
  otpauthUrl!: string;
}

export class EnableTwoFactorDto {
  @ApiProperty({ description: 'The 6-digit code the authenticator app shows for the pending secret', example: '123456', pattern: '^\\d{6}$' })
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits your authenticator app shows' })
  code!: string;
}

export class RecoveryCodesDto {
  @ApiProperty({ type: String, isArray: true, description: '10 single-use recovery codes, shown this once (only their hashes are kept)', example: ['k7m2p-q9xz4'] })
  recoveryCodes!: string[];
}

export class DisableTwoFactorDto {
  @ApiProperty({ description: 'The password the account signs in with today', example: 'correct horse battery', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  currentPassword!: string;

  @ApiProperty({ description: CODE_DESCRIPTION, example: '123456', pattern: CODE_PATTERN.source })
  @IsString()
  @Matches(CODE_PATTERN, { message: 'code must be the 6 digits of your authenticator app or a recovery code' })
  code!: string;
}

export class LogInTwoFactorDto {
  @ApiProperty({ description: 'The `challenge` of the sign-in that asked for a code', example: 'b3JpZ2luYWwtY2hhbGxlbmdlLXRva2VuLWV4YW1wbGUx', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  challenge!: string;

  @ApiProperty({ description: CODE_DESCRIPTION, example: '123456', pattern: CODE_PATTERN.source })
  @IsString()
  @Matches(CODE_PATTERN, { message: 'code must be the 6 digits of your authenticator app or a recovery code' })
  code!: string;
}

/** A right password of an account with two-factor on: no cookie yet; `POST /auth/login/2fa` takes the challenge and a code. */
export class TwoFactorChallengeDto {
  @ApiProperty({ enum: [true], description: 'Always true: a code is needed to finish signing in' })
  twoFactorRequired!: true;

  @ApiProperty({ description: 'Opaque, valid 5 minutes; five wrong codes end it', example: 'b3JpZ2luYWwtY2hhbGxlbmdlLXRva2VuLWV4YW1wbGUx' })
  challenge!: string;
}
