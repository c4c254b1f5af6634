/** The idempotency module's public entry (Idempotency-Key handling for the money routes): other modules import only what is here (docs/architecture.md). */
export { IdempotencyModule } from './idempotency.module';
export { AnswerStore, claimedRead, IdempotencyService, UnkeptAnswer } from './idempotency.service';
export type { ClaimedReadValues, ClaimedRow, IdempotentRequest, IdempotentResult } from './idempotency.service';
