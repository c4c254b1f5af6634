import { declare, fixed } from '../../registry/declarations';

/** What the play-sessions module adds to the app's tables (src/registry/declarations.ts). */
export const PLAY_SESSIONS = declare({
  errors: {
    GAME_UNAVAILABLE: 404,
    SESSION_NOT_FOUND: 404,
    SESSION_EXPIRED: 410,
  },
  limits: {
    /**
     * Spec §8 / CONTRACT §16.4: 1 insert-coin attempt per 500 ms per play session. Not
     * configurable; only a test run may shorten the window (INSERT_COIN_BURST_MS, Config.insertCoinBurstMs).
     */
    'insert-coin-burst': { rule: fixed({ limit: 1, windowMs: 500 }, (config) => ({ limit: 1, windowMs: config.insertCoinBurstMs })) },
    /** Spec §8: 60 insert-coin attempts in any 60 s per play session. Not configurable. */
    'insert-coin-minute': { rule: fixed({ limit: 60, windowMs: 60_000 }) },
  },
});

type PlaySessions = typeof PLAY_SESSIONS;
declare module '../../registry/declarations' {
  interface ModuleRegistry {
    playSessions: PlaySessions;
  }
}
