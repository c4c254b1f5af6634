import { accessTo, expiresAtOf, statusOf } from './play-session.rules';

describe('play session status', () => {
  const lastSeenAt = new Date('2026-01-01T00:00:00.000Z');

  it('is ended once ended, whatever the clock says', () => {
    expect(statusOf({ endedAt: new Date(), active: false })).toBe('ended');
    expect(expiresAtOf({ endedAt: new Date(), active: false, lastSeenAt }, 1800)).toBeNull();
  });

  it('is idle when timed out, with a null expiresAt', () => {
    expect(statusOf({ endedAt: null, active: false })).toBe('idle');
    expect(expiresAtOf({ endedAt: null, active: false, lastSeenAt }, 1800)).toBeNull();
  });

  it('is active otherwise, expiring one idle timeout after lastSeenAt', () => {
    expect(statusOf({ endedAt: null, active: true })).toBe('active');
    expect(expiresAtOf({ endedAt: null, active: true, lastSeenAt }, 1800)).toEqual(new Date('2026-01-01T00:30:00.000Z'));
  });
});

describe('who gets which play session', () => {
  const player = { isOwner: false, isAdmin: false };
  const owner = { isOwner: true, isAdmin: false };
  const admin = { isOwner: false, isAdmin: true };

  it.each([
    ['published', player, false, 'paid'],
    ['published', player, true, 'forbidden'],
    ['published', owner, false, 'paid'],
    ['published', owner, true, 'test'],
    ['published', admin, false, 'paid'],
    ['published', admin, true, 'test'],
    ['unpublished', player, false, 'unavailable'],
    ['unpublished', player, true, 'forbidden'],
    ['unpublished', owner, false, 'test'],
    ['unpublished', owner, true, 'test'],
    ['unpublished', admin, false, 'test'],
    ['suspended', player, false, 'unavailable'],
    ['suspended', owner, false, 'unavailable'],
    ['suspended', owner, true, 'unavailable'],
    ['suspended', admin, false, 'test'],
    ['suspended', admin, true, 'test'],
  ] as const)('%s game, %o, preview %s → %s', (status, caller, preview, kind) => {
    expect(accessTo({ status }, caller, preview).kind).toBe(kind);
  });
});
