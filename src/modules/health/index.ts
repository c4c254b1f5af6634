/** The health module's public entry (health checks): other modules import only what is here (docs/architecture.md). */
export { HealthModule } from './health.module';
