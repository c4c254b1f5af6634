import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../support/database';
import { MAIN, startService } from '../support/process';

/** The built service as a real process: start-up, configuration errors, SIGTERM, embedded data. */
describe('service process', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
  });

  it('stops start-up on a bad configuration value with a message naming the variable', async () => {
    const service = await startService({ SESSION_IDLE_TIMEOUT_SECONDS: 'soon', DATABASE_URL: 'postgres://127.0.0.1:1/x' }, { waitReady: false });
    const code = await service.exited;
    expect(code).not.toBe(0);
    expect(service.output()).toContain('SESSION_IDLE_TIMEOUT_SECONDS="soon"; SESSION_IDLE_TIMEOUT_SECONDS accepts an integer from 1 to 86400');
  });

  it('runs on DATABASE_URL, answers /health/ready and exits 0 on SIGTERM', async () => {
    const service = await startService({ DATABASE_URL: await createTestDatabase() });
    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await service.stop('SIGTERM')).toBe(0);
  });

  it('drains and exits 0 on SIGHUP (the terminal of npm start closed), as on SIGTERM', async () => {
    const service = await startService({ DATABASE_URL: await createTestDatabase() });
    expect(await service.stop('SIGHUP')).toBe(0);
    expect(service.output()).toContain('SIGHUP received: draining in-flight requests');
    expect(service.output()).toContain('Stopped cleanly');
  });

  it('starts an embedded PostgreSQL without DATABASE_URL, stops it cleanly and reuses its data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'arcade-embedded-'));
    try {
      const first = await startService({ DATA_DIR: dataDir }, { timeoutMs: 60_000 });
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      // The superuser's password is generated once and kept beside the data (issue 14), never logged.
      const { superuserPassword: password } = JSON.parse(readFileSync(join(dataDir, 'postgres.credentials.json'), 'utf8')) as { superuserPassword: string };
      expect(first.output()).not.toContain(password);
      const port = Number(/"embeddedPort":(\d+)/.exec(first.output())?.[1]);
      expect(port).toBeGreaterThan(0);
      const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'arcade' });
      await client.connect();
      await client.query("INSERT INTO app_settings (key, value) VALUES ('process-test-marker', 'kept')");
      await client.end();
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

      const second = await startService({ DATA_DIR: dataDir }, { timeoutMs: 60_000 });
      const port2 = Number(/"embeddedPort":(\d+)/.exec(second.output())?.[1]);
      const again = new Client({ host: '127.0.0.1', port: port2, user: 'postgres', password, database: 'arcade' });
      await again.connect();
      const { rows } = await again.query("SELECT value FROM app_settings WHERE key = 'process-test-marker'");
      await again.end();
      expect(rows).toEqual([{ value: 'kept' }]);
      expect(await second.stop('SIGTERM')).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
