import { createSdk, SdkWindow } from './sdk';
import { parseRequest, reasonForHttpError, REASONS } from './protocol';

const HOST = 'http://arcade.test:3000';

type Listener = (event: { data: unknown; origin: string; source: unknown }) => void;

/** A fake game window inside a host page: records what the SDK posts to its parent. */
function fakeWindow(hash = `#arcadeHost=${encodeURIComponent(HOST)}`) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's messages, asserted field by field
  const posted: { message: any; targetOrigin: string }[] = [];
  const listeners: Listener[] = [];
  const parent = { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) };
  const win: SdkWindow = {
    parent,
    location: { hash },
    addEventListener: (_type, listener) => listeners.push(listener),
    setTimeout: (handler, ms) => setTimeout(handler, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const deliver = (data: unknown, origin = HOST, source: unknown = parent) => listeners.forEach((l) => l({ data, origin, source }));
  const reply = (body: Record<string, unknown>, origin = HOST, source: unknown = parent) =>
    deliver({ __svc: 1, id: posted[posted.length - 1].message.id, ...body }, origin, source);
  return { win, posted, parent, deliver, reply };
}

/** Lets the SDK's promise chain run. */
const tick = () => new Promise((r) => setImmediate(r));

describe('ArcadeSDK over the bridge', () => {
  it('posts the envelope to the host origin only and resolves with the matching reply', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    expect(sdk.version).toBe('1.1.0');
    expect(sdk.mock).toBe(false);
    const result = sdk.insertCoin();
    expect(f.posted).toHaveLength(1);
    expect(f.posted[0].targetOrigin).toBe(HOST);
    expect(f.posted[0].message).toEqual({ __svc: 1, id: expect.any(String), type: 'insertCoin', payload: {} });
    f.reply({ ok: true, data: { insertionId: 'ins-1', testMode: false } });
    await expect(result).resolves.toEqual({ ok: true, insertionId: 'ins-1', testMode: false });
  });

  it('ignores replies from a wrong origin, from another window and with an unknown id', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    let settled: unknown;
    void sdk.insertCoin().then((r) => (settled = r));
    const id = f.posted[0].message.id;
    f.deliver({ __svc: 1, id, ok: true, data: { insertionId: 'evil-origin' } }, 'http://evil.test');
    f.deliver({ __svc: 1, id, ok: true, data: { insertionId: 'evil-window' } }, HOST, { postMessage() {} });
    f.deliver({ __svc: 1, id: 'other', ok: true, data: { insertionId: 'other-id' } });
    f.deliver({ __svc: 2, id, ok: true, data: { insertionId: 'wrong-svc' } });
    await tick();
    expect(settled).toBeUndefined();
    f.deliver({ __svc: 1, id, ok: true, data: { insertionId: 'real', testMode: false } });
    await tick();
    expect(settled).toEqual({ ok: true, insertionId: 'real', testMode: false });
  });

  it('resolves TIMEOUT after 10 seconds without an answer, and ignores a late reply', async () => {
    jest.useFakeTimers();
    try {
      const f = fakeWindow();
      const sdk = createSdk(f.win);
      const result = sdk.unlockAchievement('first-coin');
      jest.advanceTimersByTime(9_999);
      let settled: unknown;
      void result.then((r) => (settled = r));
      await Promise.resolve();
      expect(settled).toBeUndefined();
      jest.advanceTimersByTime(1);
      await expect(result).resolves.toEqual({ ok: false, reason: 'TIMEOUT' });
      f.reply({ ok: true, data: { unlocked: true } });
    } finally {
      jest.useRealTimers();
    }
  });

  it('checks achievement keys locally: INVALID_KEY and no message', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    for (const key of ['', 'Upper', '-dash-first', 'a'.repeat(49), 'white space', 42 as unknown as string]) {
      await expect(sdk.unlockAchievement(key)).resolves.toEqual({ ok: false, reason: 'INVALID_KEY' });
    }
    expect(f.posted).toHaveLength(0);
  });

  it('checks scores locally: INVALID_SCORE and no message', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    for (const score of [-1, 1.5, Number.NaN, 2 ** 53, '10' as unknown as number]) {
      await expect(sdk.submitScore(score)).resolves.toEqual({ ok: false, reason: 'INVALID_SCORE' });
    }
    expect(f.posted).toHaveLength(0);
  });

  it('never hands the host rewards to the game', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    const result = sdk.unlockAchievement('first-coin');
    const achievement = { key: 'first-coin', name: 'First', description: 'd', iconKey: 'coin', secret: false };
    f.reply({ ok: true, data: { achievement, unlocked: true, newlyUnlocked: true, unlockedAt: '2026-01-01T00:00:00Z', testMode: false, rewards: [{ kind: 'achievement' }] } });
    await expect(result).resolves.toEqual({ ok: true, achievement, unlocked: true, newlyUnlocked: true, unlockedAt: '2026-01-01T00:00:00Z', testMode: false });
  });

  it('passes on the reasons of spec §6.6 and turns anything else into ERROR', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    for (const reason of REASONS.unlockAchievement) {
      const result = sdk.unlockAchievement('first-coin');
      f.reply({ ok: false, reason });
      await expect(result).resolves.toEqual({ ok: false, reason });
    }
    const odd = sdk.unlockAchievement('first-coin');
    f.reply({ ok: false, reason: 'INSUFFICIENT_COINS' });
    await expect(odd).resolves.toEqual({ ok: false, reason: 'ERROR' });
  });

  it('passes on USER_ACTION_REQUIRED for insertCoin only (CONTRACT §14.1)', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    for (const reason of ['USER_ACTION_REQUIRED', 'BUSY', 'INSUFFICIENT_COINS', 'RATE_LIMITED']) {
      const result = sdk.insertCoin();
      f.reply({ ok: false, reason });
      await expect(result).resolves.toEqual({ ok: false, reason });
    }
    const score = sdk.submitScore(10);
    f.reply({ ok: false, reason: 'USER_ACTION_REQUIRED' });
    await expect(score).resolves.toEqual({ ok: false, reason: 'ERROR' });
  });

  it('posts submitScore and init with their payloads', async () => {
    const f = fakeWindow();
    const sdk = createSdk(f.win);
    void sdk.submitScore(1234);
    void sdk.init();
    expect(f.posted.map((p) => [p.message.type, p.message.payload])).toEqual([
      ['submitScore', { score: 1234 }],
      ['init', {}],
    ]);
    expect(new Set(f.posted.map((p) => p.message.id)).size).toBe(2);
    for (const p of f.posted) f.deliver({ __svc: 1, id: p.message.id, ok: false, reason: 'ERROR' });
  });
});

describe('ArcadeSDK mock mode', () => {
  it('runs in mock mode without a parent window', async () => {
    const f = fakeWindow();
    const win = { ...f.win, parent: null };
    const sdk = createSdk(win);
    expect(sdk.mock).toBe(true);
    await expect(sdk.init()).resolves.toMatchObject({ ok: true, testMode: true, player: { ref: expect.stringMatching(/^pr_[0-9a-f]{32}$/) } });
    await expect(sdk.insertCoin()).resolves.toEqual({ ok: true, insertionId: expect.stringMatching(/^test_mock_/), testMode: true });
    await expect(sdk.unlockAchievement('first-coin')).resolves.toMatchObject({ ok: true, unlocked: false, testMode: true, unlockedAt: null });
    await expect(sdk.submitScore(10)).resolves.toMatchObject({ ok: true, saved: false, testMode: true, scoreId: null });
    await expect(sdk.unlockAchievement('BAD')).resolves.toEqual({ ok: false, reason: 'INVALID_KEY' });
    expect(f.posted).toHaveLength(0);
  });

  it('runs in mock mode when its parent is itself (a top-level page)', () => {
    const f = fakeWindow();
    const win: SdkWindow = { ...f.win };
    win.parent = win as unknown as SdkWindow['parent'];
    expect(createSdk(win).mock).toBe(true);
  });

  it('runs in mock mode when the host origin is missing or not an origin', () => {
    for (const hash of ['', '#arcadeHost=', '#arcadeHost=javascript%3Aalert(1)', '#arcadeHost=http%3A%2F%2Fa.test%2Fpath']) {
      expect(createSdk(fakeWindow(hash).win).mock).toBe(true);
    }
  });
});

describe('HTTP error → reason (spec §6.6, CONTRACT §14.1)', () => {
  it.each([
    [0, undefined, 'ERROR'],
    [500, 'INTERNAL_ERROR', 'ERROR'],
    [503, 'SERVICE_UNAVAILABLE', 'ERROR'],
    [401, 'UNAUTHENTICATED', 'NOT_SIGNED_IN'],
    [403, 'ACCOUNT_NOT_LINKED', 'NOT_SIGNED_IN'],
    [403, 'FORBIDDEN', 'NOT_SIGNED_IN'],
    [403, 'EMAIL_NOT_VERIFIED', 'EMAIL_NOT_VERIFIED'],
    [400, 'INVALID_REQUEST', 'INVALID_REQUEST'],
    [404, 'SESSION_NOT_FOUND', 'SESSION_NOT_FOUND'],
    [404, 'ACHIEVEMENT_NOT_FOUND', 'ACHIEVEMENT_NOT_FOUND'],
    [404, 'GAME_UNAVAILABLE', 'GAME_UNAVAILABLE'],
    [404, 'NOT_FOUND', 'ERROR'],
    [410, 'SESSION_EXPIRED', 'SESSION_EXPIRED'],
    [429, 'RATE_LIMITED', 'ERROR'],
  ])('unlockAchievement: %i %s → %s', (status, code, reason) => {
    expect(reasonForHttpError('unlockAchievement', status, code)).toBe(reason);
    expect(REASONS.unlockAchievement).toContain(reason);
  });

  it.each([
    [402, 'INSUFFICIENT_COINS', 'INSUFFICIENT_COINS'],
    [429, 'RATE_LIMITED', 'RATE_LIMITED'],
    [409, 'IDEMPOTENCY_KEY_CONFLICT', 'ERROR'],
    [410, 'SESSION_EXPIRED', 'SESSION_EXPIRED'],
  ])('insertCoin: %i %s → %s', (status, code, reason) => {
    expect(reasonForHttpError('insertCoin', status, code)).toBe(reason);
  });

  it.each([
    [409, 'COIN_REQUIRED', 'COIN_REQUIRED'],
    [409, 'INSERTION_ALREADY_SCORED', 'INSERTION_ALREADY_SCORED'],
    // A voided insertion (CONTRACT §19.1): the game's remedy is a new coin, within §14.1's reasons.
    [409, 'INSERTION_VOIDED', 'COIN_REQUIRED'],
    [422, 'SCORE_OUT_OF_RANGE', 'SCORE_OUT_OF_RANGE'],
    [429, 'RATE_LIMITED', 'RATE_LIMITED'],
  ])('submitScore: %i %s → %s', (status, code, reason) => {
    expect(reasonForHttpError('submitScore', status, code)).toBe(reason);
  });
});

describe('host-side validation of game messages', () => {
  it('accepts well-formed requests', () => {
    expect(parseRequest({ __svc: 1, id: 'a-1', type: 'insertCoin', payload: {} })).toMatchObject({ kind: 'request' });
    expect(parseRequest({ __svc: 1, id: 'a-2', type: 'unlockAchievement', payload: { key: 'first-coin' } })).toMatchObject({ kind: 'request' });
    expect(parseRequest({ __svc: 1, id: 'a-3', type: 'submitScore', payload: { score: 0 } })).toMatchObject({ kind: 'request' });
  });

  it('ignores messages that are not envelopes', () => {
    for (const data of [null, 'text', [], { __svc: 2, id: 'x', type: 'insertCoin', payload: {} }, { __svc: 1, type: 'insertCoin', payload: {} }, { __svc: 1, id: 'x'.repeat(65), type: 'init', payload: {} }]) {
      expect(parseRequest(data)).toEqual({ kind: 'ignore' });
    }
  });

  it('refuses malformed payloads and unknown types', () => {
    for (const data of [
      { __svc: 1, id: 'x', type: 'drainWallet', payload: {} },
      { __svc: 1, id: 'x', type: 'insertCoin' },
      { __svc: 1, id: 'x', type: 'insertCoin', payload: { coins: 5 } },
      { __svc: 1, id: 'x', type: 'unlockAchievement', payload: { key: 'BAD KEY' } },
      { __svc: 1, id: 'x', type: 'submitScore', payload: { score: -5 } },
      { __svc: 1, id: 'x', type: 'submitScore', payload: { score: 5, extra: true } },
    ]) {
      expect(parseRequest(data)).toMatchObject({ kind: 'invalid', id: 'x' });
    }
  });
});
