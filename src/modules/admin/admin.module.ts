import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';

/** Operator tools; uses the exported services of identity and the developer portal. */
@Module({ controllers: [AdminController] })
export class AdminModule {}
