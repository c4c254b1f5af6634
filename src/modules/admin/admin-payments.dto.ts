import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { ID_DOC, IdempotencyKeyProperty } from '../../http/params';

export class VoidInsertionDto {
  @ApiProperty({ description: 'Why (kept in the audit log), 1 to 200 characters', example: 'Charged twice by a game bug', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  reason!: string;

  @IdempotencyKeyProperty()
  idempotencyKey!: string;
}

export class VoidResultDto {
  @ApiProperty(ID_DOC)
  insertionId!: string;

  @ApiProperty({ format: 'date-time', description: 'When the insertion was voided (the first void\'s time in a replay)' })
  voidedAt!: Date;

  @ApiProperty({ description: 'The player\'s wallet entry of kind `void` that returned the coins', example: '1044' })
  entryId!: string;

  @ApiProperty({ description: 'The player\'s balance right after that entry', example: 20, minimum: 0 })
  balance!: number;

  @ApiProperty({ description: 'True when the insertion was already voided (with any key): the first answer, nothing changed' })
  replayed!: boolean;
}
