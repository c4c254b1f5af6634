/** The admin module's public entry (the operator console): other modules import only what is here (docs/architecture.md). */
export { AdminModule } from './admin.module';
