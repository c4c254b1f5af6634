import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { runningEmbeddedUrl } from '../database/embedded-postgres';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from '../modules/payments';

/**
 * `npm run payments:sandbox-event -- <refunded|disputed|dispute_won|dispute_lost|succeeded|failed> <purchaseId> [--amount <cents>] [--url <service URL>]`
 *
 * Sends a signed sandbox event to `POST /webhooks/payments/sandbox`, exactly as the sandbox provider
 * would (docs/payments.md): how to try a refund (whole, or partial with --amount), a dispute and its
 * outcome. `--amount` is sent as `amountCents` (with `currency: "usd"`). The signing key is
 * PAYMENT_WEBHOOK_SECRET, else the one the service generated, read from its database (DATABASE_URL,
 * else the embedded PostgreSQL of a running `npm start` under DATA_DIR). The key is never printed.
 */
const TYPES: Record<string, string> = {
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
  disputed: 'payment.disputed',
  dispute_won: 'payment.dispute_won',
  dispute_lost: 'payment.dispute_lost',
};

function usage(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run payments:sandbox-event -- <${Object.keys(TYPES).join('|')}> <purchaseId> [--amount <cents>] [--url http://localhost:3000]\n`);
  process.exit(2);
}

async function signingKey(): Promise<string> {
  const fromEnv = process.env.PAYMENT_WEBHOOK_SECRET?.trim();
  if (fromEnv) return fromEnv;
  const url = process.env.DATABASE_URL?.trim() || (await runningEmbeddedUrl(resolve(process.env.DATA_DIR?.trim() || '.data', 'postgres')));
  if (!url) usage('No signing key: set PAYMENT_WEBHOOK_SECRET or DATABASE_URL, or start the service (npm start) so its embedded database can be read.');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ value: string }>("SELECT value FROM app_settings WHERE key = 'payment_webhook_secret'");
    if (!rows[0]) usage('The database holds no sandbox signing key yet: start the service once with PAYMENT_PROVIDER=sandbox.');
    return rows[0].value;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const urlAt = args.indexOf('--url');
  const base = urlAt >= 0 ? args.splice(urlAt, 2)[1] : process.env.PUBLIC_ORIGIN?.trim() || `http://localhost:${process.env.PORT?.trim() || '3000'}`;
  const amountAt = args.indexOf('--amount');
  const amount = amountAt >= 0 ? args.splice(amountAt, 2)[1] : undefined;
  if (amount !== undefined && !/^\d{1,12}$/.test(amount)) usage('--amount takes a whole number of cents, e.g. --amount 125 for 1.25 USD.');
  const [kind, purchaseId] = args;
  const type = kind ? (TYPES[kind] ?? (Object.values(TYPES).includes(kind) ? kind : undefined)) : undefined;
  if (!type || !purchaseId || !base) usage('Which event, for which purchase?');
  const created = Math.floor(Date.now() / 1000);
  const money = amount === undefined ? {} : { amountCents: Number(amount), currency: 'usd' };
  const body = JSON.stringify({ id: `evt_cli_${randomUUID()}`, type, purchaseId, created, ...money });
  const res = await fetch(new URL('/webhooks/payments/sandbox', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxEvent(await signingKey(), body, created) },
    body,
  });
  process.stdout.write(`${type} for ${purchaseId}: ${res.status} ${await res.text()}\n`);
  process.exitCode = res.status === 200 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
