import { createHmac } from 'node:crypto';

/**
 * PlayerRef (spec §2.3, CONTRACT §6): `pr_` + the first 32 hex digits of
 * HMAC-SHA256(secret, developerId + ":" + playerId) — stable per developer, unlinkable across developers.
 */
export function playerRef(secret: string, developerId: string, playerId: string): string {
  return `pr_${createHmac('sha256', secret).update(`${developerId}:${playerId}`).digest('hex').slice(0, 32)}`;
}
