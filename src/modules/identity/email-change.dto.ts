import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { NoInvisibleCharacters } from '../../http/visible-text';

/** `POST /api/me/email` (CONTRACT §20). */
export class ChangeEmailDto {
  @ApiProperty({
    description:
      'The new e-mail address, as at sign-up: compatibility forms are folded (NFKC) and case is ignored; invisible or formatting characters are refused',
    example: 'ada.new@example.com',
    maxLength: 254,
  })
  @IsEmail()
  @MaxLength(254)
  @NoInvisibleCharacters()
  email!: string;

  @ApiProperty({ description: 'The password the account signs in with today', example: 'correct horse battery', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  currentPassword!: string;
}

export class EmailChangeRequestedDto {
  @ApiProperty({ description: 'The new address (normalised) the confirmation link went to; the current one stays the login until it is followed', example: 'ada.new@example.com' })
  pendingEmail!: string;
}

/** `POST /auth/confirm-email` (CONTRACT §20). */
export class ConfirmEmailDto {
  @ApiProperty({ description: 'The token from the confirmation link', example: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c', maxLength: 128 })
  @IsString()
  @Length(1, 128)
  token!: string;
}
