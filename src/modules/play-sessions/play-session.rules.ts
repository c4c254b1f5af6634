/** Summary status (spec §3.1, CONTRACT §6): ended once ended; idle when timed out; else active. */
export type PlaySessionStatus = 'active' | 'idle' | 'ended';

export function statusOf(session: { endedAt: Date | null; active: boolean }): PlaySessionStatus {
  if (session.endedAt) return 'ended';
  return session.active ? 'active' : 'idle';
}

/** `expiresAt = lastSeenAt + idle timeout`, null unless the session is active. */
export function expiresAtOf(session: { endedAt: Date | null; active: boolean; lastSeenAt: Date }, idleTimeoutSeconds: number): Date | null {
  return statusOf(session) === 'active' ? new Date(session.lastSeenAt.getTime() + idleTimeoutSeconds * 1000) : null;
}

export type GameAccess = { kind: 'paid' } | { kind: 'test' } | { kind: 'unavailable' } | { kind: 'forbidden' };

/**
 * Who gets which play session (spec §1, §3.1; CONTRACT §6, §16.1): owners and admins always get a
 * test-mode session on an unpublished game, admins on a suspended one; on a published game they
 * get a paid one unless they ask for `preview: true`. Everyone else: published games only, never a
 * preview.
 */
export function accessTo(
  game: { status: 'published' | 'unpublished' | 'suspended' },
  caller: { isOwner: boolean; isAdmin: boolean },
  preview: boolean,
): GameAccess {
  const privileged = caller.isOwner || caller.isAdmin;
  if (preview && !privileged) return { kind: 'forbidden' };
  switch (game.status) {
    case 'suspended':
      return caller.isAdmin ? { kind: 'test' } : { kind: 'unavailable' };
    case 'unpublished':
      return privileged ? { kind: 'test' } : { kind: 'unavailable' };
    case 'published':
      return preview ? { kind: 'test' } : { kind: 'paid' };
  }
}
