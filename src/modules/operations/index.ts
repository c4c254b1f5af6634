/** The operations module's public entry (GET /metrics, the periodic books check): other code imports only what is here. */
export { OperationsModule } from './operations.module';
export { InvariantCheckService, INVARIANT_CHECK_LOCK } from './invariant-check.service';
export type { InvariantCheckRun } from './invariant-check.service';
