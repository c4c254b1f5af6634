/**
 * Arcade SDK 1.1.0 — types for game developers. Load the SDK with
 * `<script src="https://YOUR-ARCADE/sdk/v1.js"></script>` and use `window.ArcadeSDK`.
 * Served at /sdk/v1.d.ts. No call ever rejects: each resolves with `{ ok: true, ... }` or
 * `{ ok: false, reason }`.
 */

/** Reasons shared by every call that reaches the host page. */
export type ArcadeSessionReason =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXPIRED'
  | 'NOT_SIGNED_IN'
  | 'EMAIL_NOT_VERIFIED'
  | 'INVALID_REQUEST'
  /** No answer within 10 seconds; the call may or may not have happened. */
  | 'TIMEOUT'
  /** Server error or network failure; retry later. */
  | 'ERROR';

export type ArcadeFailure<R extends string> = { ok: false; reason: R };

export interface ArcadePlayer {
  /** Pseudonymous player reference (`pr_` + 32 hex digits), stable for one developer's games. */
  ref: string;
  displayName: string;
}

export type ArcadeInitResult =
  | { ok: true; player: ArcadePlayer; sessionId: string; coinsPerCredit: number; testMode: boolean }
  | ArcadeFailure<ArcadeSessionReason | 'GAME_UNAVAILABLE'>;

export type ArcadeInsertCoinResult =
  | { ok: true; insertionId: string; testMode: boolean }
  /**
   * USER_ACTION_REQUIRED: the player did not click, tap or press a key moments ago, so nothing was
   * sent and nothing spent (only the player spends coins: call insertCoin from a click or key handler).
   * BUSY: another insertion is still in flight (refused at once, never queued).
   */
  | ArcadeFailure<ArcadeSessionReason | 'USER_ACTION_REQUIRED' | 'INSUFFICIENT_COINS' | 'RATE_LIMITED' | 'BUSY'>;

export interface ArcadeAchievement {
  key: string;
  name: string;
  description: string;
  iconKey: string;
  secret: boolean;
}

export type ArcadeUnlockResult =
  | {
      ok: true;
      achievement: ArcadeAchievement;
      /** False only in mock mode (no host page). */
      unlocked: boolean;
      /** True the first time; the host page plays a celebration. */
      newlyUnlocked: boolean;
      /** Time of the first unlock; null in test mode and mock mode. */
      unlockedAt: string | null;
      /** Preview or mock mode: nothing was stored. */
      testMode: boolean;
    }
  /** INVALID_KEY is checked in the SDK: no message is sent. */
  | ArcadeFailure<ArcadeSessionReason | 'INVALID_KEY' | 'ACHIEVEMENT_NOT_FOUND' | 'GAME_UNAVAILABLE'>;

export type ArcadeScoreResult =
  | {
      ok: true;
      scoreId: string | null;
      saved: boolean;
      qualifies: boolean;
      rank: number | null;
      initials: string | null;
      /** The host page asks the player for initials itself. */
      needsInitials: boolean;
      testMode: boolean;
      replayed: boolean;
    }
  /**
   * INVALID_SCORE (not an integer from 0 to 2^53-1) is checked in the SDK: no message is sent.
   * COIN_REQUIRED also when an admin voided the latest insertion (its coins went back).
   */
  | ArcadeFailure<
      ArcadeSessionReason | 'INVALID_SCORE' | 'COIN_REQUIRED' | 'INSERTION_ALREADY_SCORED' | 'SCORE_OUT_OF_RANGE' | 'RATE_LIMITED'
    >;

export interface ArcadeSDK {
  readonly version: '1.1.0';
  /** True outside a host page: calls resolve with made-up answers and `testMode: true`. */
  readonly mock: boolean;
  init(): Promise<ArcadeInitResult>;
  /** Spends the player's coins for one credit: call it from the player's click or key press (USER_ACTION_REQUIRED otherwise). */
  insertCoin(): Promise<ArcadeInsertCoinResult>;
  /** Needs SDK 1.1.0 or later. */
  unlockAchievement(key: string): Promise<ArcadeUnlockResult>;
  submitScore(score: number): Promise<ArcadeScoreResult>;
}

declare global {
  interface Window {
    ArcadeSDK: ArcadeSDK;
  }
}
