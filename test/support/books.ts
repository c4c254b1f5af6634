import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { Pool } from 'pg';
import type { TestApp } from './app';
import { adminCookie } from './factories';

/** A §22 check as the reconciliation and check:invariants answer it. */
export interface Check {
  name: string;
  ok: boolean;
  details: { problems: { rule: string; rows: Record<string, unknown>[] }[]; [more: string]: unknown };
}

/** The reconciliation's checks (GET /api/admin/reconciliation as an admin). */
export async function reconciliationChecks(t: TestApp): Promise<Check[]> {
  const res = await t.http().get('/api/admin/reconciliation').set('Cookie', await adminCookie(t));
  if (res.status !== 200) throw new Error(`reconciliation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.checks as Check[];
}

/**
 * `npm run check:invariants` as an operator runs it (the built script, dist/: `npm test` builds
 * first) against `databaseUrl`: its exit code, its report (stdout, JSON) and the failed checks'
 * names it printed (stderr).
 */
export function runCheckInvariants(databaseUrl: string): Promise<{ code: number; checks: Check[]; failedNames: string[]; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [resolve(__dirname, '../../dist/src/ops/check-invariants.js')],
      { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        try {
          const report = JSON.parse(stdout) as { checks: Check[] };
          const failedNames = [...stderr.matchAll(/^check failed: (\w+)$/gm)].map((m) => m[1]!);
          done({ code, checks: report.checks, failedNames, stderr });
        } catch {
          fail(new Error(`check:invariants (exit ${code}) printed no report: ${stderr}`));
        }
      },
    );
  });
}

/** The names of the checks that failed. */
export function failedChecks(checks: Check[]): string[] {
  return checks.filter((check) => !check.ok).map((check) => check.name);
}

/** Every row a failed check reports that mentions `id` (a wallet, developer, payout...). */
export function rowsAbout(checks: Check[], name: string, id: string): Record<string, unknown>[] {
  const check = checks.find((c) => c.name === name);
  return (check?.details.problems ?? []).flatMap((p) => p.rows).filter((row) => Object.values(row).includes(id));
}

/**
 * The payouts tables as docs/… issue 30's shared schema gives them (the payouts work's migration
 * 1796910000000-add-payouts makes them): created here only when that migration has not (yet) run.
 */
export async function ensurePayoutTables(db: Pool): Promise<void> {
  await db.query(`
    CREATE TABLE IF NOT EXISTS payout_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      idempotency_key text UNIQUE NOT NULL,
      requested_by uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS payouts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      run_id uuid NOT NULL REFERENCES payout_runs(id),
      developer_id uuid NOT NULL REFERENCES developers(id),
      amount_mills bigint NOT NULL CONSTRAINT payouts_amount_positive CHECK (amount_mills > 0),
      balance_before_mills bigint NOT NULL,
      held_mills bigint NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
      method_kind text NOT NULL,
      method_account_id text,
      reference text,
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      paid_at timestamptz,
      failed_at timestamptz,
      CONSTRAINT payouts_within_available CHECK (amount_mills <= balance_before_mills - held_mills)
    );`);
  // The app's role gets on new tables what src/database/app-role.ts gives it on every table at start-up.
  const role = process.env.ARCADE_TEST_APP_ROLE;
  if (role) await db.query(`GRANT SELECT, INSERT, UPDATE ON payouts, payout_runs TO "${role}"`);
}
