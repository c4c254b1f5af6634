import { existsSync } from 'node:fs';
import { freePort } from '../../src/database/embedded-postgres';
import { createTestDatabase } from '../support/database';
import { MAIN, startService } from '../support/process';

/** Issue 15 item 5: the start-up banner of the real process (JSON on a pipe; readable on a terminal, see src/http/logging.spec.ts). */
describe('start-up banner', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
  });

  it('says where the service is, which database and Redis it uses and the demo accounts, with no password of any URL', async () => {
    const databaseUrl = await createTestDatabase();
    const redisUrl = `redis://:redis-secret-42@127.0.0.1:${await freePort()}`; // nothing listens there
    const service = await startService({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, SEED_DEMO: 'true' });
    try {
      // Redis unreachable from the start: the service serves on in-process counters.
      const ready = await fetch(`${service.url}/health/ready`);
      expect(await ready.json()).toEqual({ status: 'ok', details: { database: 'up', rateLimits: 'in-process (Redis unreachable)' } });
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    const lines = service.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const banner = lines.find((line) => String(line.msg).startsWith('Arcade Coin Service listening on'));
    const port = new URL(service.url).port;
    expect(banner).toMatchObject({
      level: 30,
      url: `http://localhost:${port}`,
      docs: `http://localhost:${port}/docs`,
      database: expect.stringMatching(/^PostgreSQL at postgres:\/\//),
      rateLimits: expect.stringContaining('redis://:***@127.0.0.1'),
      demo: {
        seeded: true,
        playUrl: `http://localhost:${port}/play/coin-clicker`,
        accounts: expect.arrayContaining([{ role: 'player', email: 'player@demo.arcade.test', password: 'demo-player-pass' }]),
      },
    });
    const password = new URL(databaseUrl).password;
    if (password) expect(service.output()).not.toContain(`:${password}@`);
    expect(service.output()).not.toContain('redis-secret-42');
    // LOG_LEVEL=warn here: Nest's route mapping lines (debug) are not printed, the banner is.
    expect(service.output()).not.toContain('Mapped {');
  }, 60_000);
});
