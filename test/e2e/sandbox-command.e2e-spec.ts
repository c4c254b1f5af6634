/**
 * The documented sandbox command (docs/payments.md): `npm run payments:sandbox-event -- refunded
 * <purchaseId>` signs and sends the event to a running service like the sandbox provider does.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { TestApp } from '../support/app';
import { createTestDatabase, testPool } from '../support/database';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signUpVerifiedPlayer } from '../support/factories';
import { paidPurchase, purchaseOf } from '../support/payments';
import { ServiceProcess, startService } from '../support/process';

const COMMAND = resolve(__dirname, '../../dist/src/ops/sandbox-event.js');

describe('npm run payments:sandbox-event', () => {
  let service: ServiceProcess;
  let t: TestApp;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    service = await startService({ DATABASE_URL: databaseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000/3600', RATE_LIMIT_MAIL_PER_ADDRESS: '1000000/3600' });
    t = { http: () => request(service.url), db: testPool(databaseUrl), databaseUrl, app: undefined as never, clock: undefined as never, close: async () => undefined };
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await t?.db.end();
  });

  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [COMMAND, ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.databaseUrl } }).then(
      (out) => ({ code: 0, stdout: out.stdout, stderr: out.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('sends a signed refund, then a dispute, through the webhook', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidPurchase(t, player, 'pack-40');
    const refunded = await run(['refunded', purchaseId, '--url', service.url]);
    expect(refunded).toEqual({ code: 0, stdout: `payment.refunded for ${purchaseId}: 200 {"received":true}\n`, stderr: '' });
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'refunded' });
    const disputed = await run(['disputed', purchaseId, '--url', service.url]);
    expect(disputed.code).toBe(0);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'disputed' });
    const secret = (await t.db.query("SELECT value FROM app_settings WHERE key = 'payment_webhook_secret'")).rows[0].value;
    expect(refunded.stdout + disputed.stdout).not.toContain(secret);
  });

  it('sends a partial refund with --amount, and a dispute\'s outcome', async () => {
    const player = await signUpVerifiedPlayer(t);
    const purchaseId = await paidPurchase(t, player, 'pack-40');
    const partial = await run(['refunded', purchaseId, '--amount', '125', '--url', service.url]);
    expect(partial).toEqual({ code: 0, stdout: `payment.refunded for ${purchaseId}: 200 {"received":true}\n`, stderr: '' });
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1.25' });
    expect((await run(['disputed', purchaseId, '--url', service.url])).code).toBe(0);
    expect((await run(['dispute_won', purchaseId, '--url', service.url])).code).toBe(0);
    expect(await purchaseOf(t, player, purchaseId)).toMatchObject({ status: 'paid', refundedUsd: '1.25', unrecoveredCoins: 0 });
    expect((await run(['refunded', purchaseId, '--amount', '1.5', '--url', service.url])).code).toBe(2);
  });

  it('explains its usage and sends nothing for an unknown event', async () => {
    const res = await run(['chargeback', 'x', '--url', service.url]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Usage: npm run payments:sandbox-event --');
  });
});
