import { createHmac } from 'node:crypto';
import { playerRef } from './player-ref';

describe('playerRef', () => {
  const secret = 'a-secret-of-sufficient-length';

  it('has the spec shape and is stable', () => {
    const ref = playerRef(secret, 'dev-1', 'player-1');
    expect(ref).toMatch(/^pr_[0-9a-f]{32}$/);
    expect(playerRef(secret, 'dev-1', 'player-1')).toBe(ref);
  });

  it('differs across developers, players and secrets', () => {
    const ref = playerRef(secret, 'dev-1', 'player-1');
    expect(playerRef(secret, 'dev-2', 'player-1')).not.toBe(ref);
    expect(playerRef(secret, 'dev-1', 'player-2')).not.toBe(ref);
    expect(playerRef('another-secret-0123456', 'dev-1', 'player-1')).not.toBe(ref);
  });

  it('is the HMAC of "developerId:playerId"', () => {
    const expected = createHmac('sha256', secret).update('dev-1:player-1').digest('hex').slice(0, 32);
    expect(playerRef(secret, 'dev-1', 'player-1')).toBe(`pr_${expected}`);
  });
});
