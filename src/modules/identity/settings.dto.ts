import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { IdProperty } from '../../http/params';

/** `POST /api/me/password` (CONTRACT §20). */
export class ChangePasswordDto {
  @ApiProperty({ description: 'The password the account signs in with today', example: 'correct horse battery', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  currentPassword!: string;

  @ApiProperty({ description: 'The new password, 8 to 128 characters', example: 'a new long passphrase', minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128)
  newPassword!: string;
}

/** One signed-in device: a live login session of the account. */
export class DeviceDto {
  @ApiProperty({ description: 'Login session id (for `DELETE /api/me/sessions/{id}`)', example: '2f1c9a4e-8d0b-4a43-9a51-0f1e8b7c6d5a' })
  id!: string;

  @ApiProperty({ description: "True for the session of this request's cookie" })
  current!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it signed in' })
  createdAt!: Date;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was last used (moved at most once a minute)' })
  lastSeenAt!: Date;

  @ApiProperty({ type: 'string', nullable: true, maxLength: 200, description: 'The `User-Agent` it signed in with, its first 200 characters; null when none was sent', example: 'Mozilla/5.0 (X11; Linux x86_64)' })
  userAgent!: string | null;
}

export class DevicesDto {
  @ApiProperty({ type: DeviceDto, isArray: true, description: 'Live login sessions, newest first (the newest 100)' })
  sessions!: DeviceDto[];
}

export class LoginSessionIdParamsDto {
  @IdProperty('Login session id (the `id` of a device)')
  id!: string;
}
