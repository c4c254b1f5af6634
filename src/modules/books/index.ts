/** The books module's public entry (statements, reconciliation, the books' checks): other code imports only what is here. */
export { BooksModule } from './books.module';
export { StatementsService } from './statements.service';
export type { Statement } from './statements.service';
export { ReconciliationService } from './reconciliation.service';
export type { Reconciliation } from './reconciliation.service';
export { BOOKS_CHECK_NAMES, failedCheckNames, runBooksChecks } from './books.checks';
export type { BooksCheck, BooksCheckDetails, BooksCheckName, BooksProblem, BooksReader } from './books.checks';
export { BooksSection } from './books-section';
export type { BooksSectionProps, BooksSectionState } from './books-section';
export { StatementSection } from './statement-section';
export type { StatementSectionProps } from './statement-section';
export { methodView, PAYOUT_COLUMNS, payoutView } from './payout.view';
export type { PayoutFields, PayoutMethodKind, PayoutMethodView, PayoutStatus, PayoutView } from './payout.view';
