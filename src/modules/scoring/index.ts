/** The scoring module's public entry (scores, high-score initials and leaderboards): other modules import only what is here (docs/architecture.md). */
export { ScoringModule } from './scoring.module';
export { ScoreModerationService } from './score-moderation.service';
export type { AdminScoreView } from './score-moderation.service';
export { scoresExport } from './account-data';
export type { ScoreExport } from './account-data';
