import type {
  ArcadeInitResult,
  ArcadeInsertCoinResult,
  ArcadeScoreResult,
  ArcadeSDK,
  ArcadeUnlockResult,
} from './arcade-sdk';
import {
  allowedReason,
  BRIDGE_TIMEOUT_MS,
  Envelope,
  hostOriginFromHash,
  isValidAchievementKey,
  isValidScore,
  MessageType,
  SDK_VERSION,
} from './protocol';

/** The parts of `window` the SDK uses; tests pass a fake. */
export interface SdkWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void } | null;
  location: { hash: string };
  addEventListener(type: 'message', listener: (event: { data: unknown; origin: string; source: unknown }) => void): void;
  setTimeout(handler: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

type Pending = { type: MessageType; resolve: (value: Record<string, unknown>) => void; timer: unknown };

let mockCounter = 0;

function randomHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++) out += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return out;
}

/**
 * Builds `window.ArcadeSDK`. Inside a host page (a parent window and a host origin in the URL
 * fragment) calls travel over postMessage to that origin only; otherwise the SDK runs in mock mode.
 */
export function createSdk(win: SdkWindow): ArcadeSDK {
  const hostOrigin = hostOriginFromHash(win.location.hash);
  const parent = win.parent && win.parent !== (win as unknown) ? win.parent : null;
  const mock = !parent || !hostOrigin;
  const pending = new Map<string, Pending>();
  let sequence = 0;
  const instance = randomHex(6);

  if (!mock) {
    win.addEventListener('message', (event) => {
      // Only the parent window at the host origin may answer: frames and other origins are ignored.
      if (event.source !== parent || event.origin !== hostOrigin) return;
      const data = event.data as Record<string, unknown> | null;
      if (typeof data !== 'object' || data === null || data.__svc !== 1 || typeof data.id !== 'string') return;
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      win.clearTimeout(call.timer);
      if (data.ok === true && typeof data.data === 'object' && data.data !== null) {
        call.resolve({ ...(data.data as Record<string, unknown>), ok: true });
      } else {
        call.resolve({ ok: false, reason: allowedReason(call.type, data.reason) });
      }
    });
  }

  function send(type: MessageType, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const id = `${instance}-${++sequence}`;
      const timer = win.setTimeout(() => {
        pending.delete(id);
        resolve({ ok: false, reason: 'TIMEOUT' });
      }, BRIDGE_TIMEOUT_MS);
      pending.set(id, { type, resolve, timer });
      const envelope: Envelope = { __svc: 1, id, type, payload };
      try {
        parent!.postMessage(envelope, hostOrigin!);
      } catch {
        pending.delete(id);
        win.clearTimeout(timer);
        resolve({ ok: false, reason: 'ERROR' });
      }
    });
  }

  return {
    version: SDK_VERSION,
    mock,

    async init(): Promise<ArcadeInitResult> {
      if (mock) {
        return {
          ok: true,
          player: { ref: `pr_${'0'.repeat(32)}`, displayName: 'Mock Player' },
          sessionId: 'mock-session',
          coinsPerCredit: 1,
          testMode: true,
        };
      }
      return (await send('init', {})) as ArcadeInitResult;
    },

    async insertCoin(): Promise<ArcadeInsertCoinResult> {
      // The host page sends it on only under the player's gesture, else USER_ACTION_REQUIRED (CONTRACT §14.1).
      if (mock) return { ok: true, insertionId: `test_mock_${randomHex(8)}_${++mockCounter}`, testMode: true };
      return (await send('insertCoin', {})) as ArcadeInsertCoinResult;
    },

    async unlockAchievement(key: string): Promise<ArcadeUnlockResult> {
      if (!isValidAchievementKey(key)) return { ok: false, reason: 'INVALID_KEY' };
      if (mock) {
        return {
          ok: true,
          achievement: { key, name: key, description: 'Mock achievement (no host page).', iconKey: 'trophy', secret: false },
          unlocked: false,
          newlyUnlocked: false,
          unlockedAt: null,
          testMode: true,
        };
      }
      const result = await send('unlockAchievement', { key });
      // Rewards belong to the host's celebration, never to the game (CONTRACT §14.1).
      delete result.rewards;
      return result as ArcadeUnlockResult;
    },

    async submitScore(score: number): Promise<ArcadeScoreResult> {
      if (!isValidScore(score)) return { ok: false, reason: 'INVALID_SCORE' };
      if (mock) {
        return {
          ok: true,
          scoreId: null,
          saved: false,
          qualifies: false,
          rank: null,
          initials: null,
          needsInitials: false,
          testMode: true,
          replayed: false,
        };
      }
      return (await send('submitScore', { score })) as ArcadeScoreResult;
    },
  };
}
