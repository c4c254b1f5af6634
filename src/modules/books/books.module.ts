import { Module } from '@nestjs/common';
import { Declares } from '../../registry/declarations';
import { BooksController } from './books.controller';
import { BOOKS } from './books.declarations';
import { ReconciliationService } from './reconciliation.service';
import { StatementsService } from './statements.service';

/**
 * The books (CONTRACT §22): a read model over the wallet's ledgers and records, the payments and the
 * payouts — monthly statements, the reconciliation and its checks (books.checks.ts, which
 * `npm run check:invariants` runs too). It owns no table and writes nothing.
 */
@Declares(BOOKS)
@Module({
  controllers: [BooksController],
  providers: [StatementsService, ReconciliationService],
  exports: [StatementsService, ReconciliationService],
})
export class BooksModule {}
