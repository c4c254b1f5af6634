import { Client } from 'pg';
import type { TestApp } from './app';
import { asAppRole } from './global-setup';

/**
 * The statements the app sends to PostgreSQL: every `pg` `Client.query` of the app's database role
 * (TypeORM's and the unit of work's alike, BEGIN and COMMIT included) while `during` runs; the
 * test's own reads, as another role, are not recorded. Texts as sent; `restore()` in `afterAll`.
 */
export interface StatementLog {
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  restore(): void;
}

export function recordStatements(t: TestApp): StatementLog {
  const appRole = new URL(asAppRole(t.databaseUrl)).username;
  let sent: string[] | undefined;
  const query = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    if (sent && this.user === appRole) {
      const first = args[0] as string | { text?: string };
      sent.push(typeof first === 'string' ? first : (first?.text ?? ''));
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  return {
    async during(work) {
      const statements: string[] = [];
      sent = statements;
      try {
        return { result: await work(), statements };
      } finally {
        sent = undefined;
      }
    },
    restore: () => spy.mockRestore(),
  };
}
