import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
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
