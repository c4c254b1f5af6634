/** The achievements module's public entry (unlocks, XP and rewards): other modules import only what is here (docs/architecture.md). */
export { AchievementsModule } from './achievements.module';
export { AchievementsService } from './achievements.service';
export type { UnlockedAchievement } from './achievements.service';
export { unlocksExport } from './account-data';
export type { UnlockExport } from './account-data';
