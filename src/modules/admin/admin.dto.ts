import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { ID_RULE } from '../developer-portal/developer-portal.dto';

export class UserIdParams {
  @ApiProperty({ ...ID_RULE, description: 'Account id (the `id` of a user)' })
  @IsString()
  @MaxLength(64)
  userId!: string;
}
