/** The retention module's public entry (the daily purge of expired data): other modules import only what is here (docs/architecture.md). */
export { RetentionModule } from './retention.module';
