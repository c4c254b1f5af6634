/** The play-sessions module's public entry (play sessions, heartbeat, insert-coin): other modules import only what is here (docs/architecture.md). */
export { PlaySessionsModule } from './play-sessions.module';
export { PlaySessionsService } from './play-sessions.service';
export type { InsertionRecord, PlaySessionRecord } from './play-sessions.service';
export { GameUnavailableError } from './play-sessions.errors';
export { playSessionsExport } from './account-data';
export type { PlaySessionExport } from './account-data';
