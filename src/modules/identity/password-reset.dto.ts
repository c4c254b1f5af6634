import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class PasswordResetRequestDto {
  @ApiProperty({ description: 'E-mail address of the account whose password to reset', example: 'ada@example.com', maxLength: 254 })
  @IsString()
  @Length(1, 254)
  email!: string;
}

export class PasswordResetRequestedDto {
  @ApiProperty({ description: 'Always true: the answer is the same whether or not an account has the e-mail', example: true, enum: [true] })
  sent!: true;
}

export class ResetPasswordDto {
  @ApiProperty({ description: 'The token from the reset link', example: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c', maxLength: 128 })
  @IsString()
  @Length(1, 128)
  token!: string;

  @ApiProperty({ description: 'The new password, 8 to 128 characters', example: 'correct horse battery', minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128)
  password!: string;
}
