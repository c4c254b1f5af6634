import { declare } from '../../registry/declarations';

/** What the achievements module adds to the app's tables (src/registry/declarations.ts). */
export const ACHIEVEMENTS = declare({
  errors: { ACHIEVEMENT_NOT_FOUND: 404 },
});

type Achievements = typeof ACHIEVEMENTS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    achievements: Achievements;
  }
}
