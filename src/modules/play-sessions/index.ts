/** The play-sessions module's public entry (play sessions, heartbeat, insert-coin): other modules import only what is here (docs/architecture.md). */
export { PlaySessionsModule } from './play-sessions.module';
export { PlaySessionsService } from './play-sessions.service';
export type { InsertionRecord, PlaySessionRecord } from './play-sessions.service';
export { ACTIVE_PLAY_READ, PlayActionService, PlayRead } from './play-action.service';
export type { PlayAction, PlayContext } from './play-action.service';
export { INSERTION_OF_DEVELOPER, SESSION_WITH_LATEST_INSERTION } from './play-session.parts';
export type { LatestInsertion } from './play-session.parts';
export { GameUnavailableError } from './play-sessions.errors';
export { playSessionsExport } from './account-data';
export type { PlaySessionExport } from './account-data';
