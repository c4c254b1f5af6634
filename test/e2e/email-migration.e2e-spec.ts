import { Client } from 'pg';
import { MIGRATIONS } from '../../migrations';
import { NormaliseAccountEmails1796100000001 } from '../../migrations/1796100000001-normalise-account-emails';
import { FoldAccountEmails1796740000000 } from '../../migrations/1796740000000-fold-account-emails';
import { createDataSource, runMigrations } from '../../src/database/data-source';
import { createEmptyDatabase } from '../support/database';

/** The migration that brings stored e-mails into the one normalised form (docs/rate-limits.md), collisions included. */
describe('migration: normalise account e-mails', () => {
  it('normalises stored addresses; of a colliding group, the holder of the address in the unique index, else the oldest, gets it', async () => {
    const url = await createEmptyDatabase();
    const dataSource = createDataSource(url, { dbPoolSize: 2, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 10000 });
    await dataSource.initialize();
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      // The schema as it was before the migration: everything applied, then undone back past it.
      await runMigrations(dataSource);
      const after = MIGRATIONS.length - MIGRATIONS.indexOf(NormaliseAccountEmails1796100000001);
      for (let i = 0; i < after; i++) await dataSource.undoLastMigration({ transaction: 'each' });

      const accounts: [string, string][] = [
        ['plain', 'Ada@Example.TEST'],
        ['dotted', '\u0130nci@example.test'],
        // One address typed two ways: the composed spelling holds it in the unique index on lower(email).
        ['older', 'Ame\u0301lie@example.test'],
        ['newer', 'Am\u00e9lie@Example.test'],
        // The normalised spelling itself holds it.
        ['older-zoe', 'zoe\u0308@example.test'],
        ['zoe', 'zo\u00eb@example.test'],
        // Nobody holds it (two orders of the same marks): the oldest gets it.
        ['first-q', 'qe\u0301\u0323@example.test'],
        ['second-q', 'qe\u0323\u0301@example.test'],
      ];
      for (const [index, [name, email]] of accounts.entries()) {
        await client.query(
          "INSERT INTO accounts (email, password_hash, display_name, created_at) VALUES ($1, 'x', $2, now() - make_interval(mins => $3))",
          [email, name, 100 - index],
        );
      }

      expect(await runMigrations(dataSource)).toContain('NormaliseAccountEmails1796100000001');
      const { rows } = await client.query<{ display_name: string; email: string }>('SELECT display_name, email FROM accounts');
      const email = Object.fromEntries(rows.map((r) => [r.display_name, r.email]));
      expect(email).toEqual({
        plain: 'ada@example.test',
        dotted: 'i\u0307nci@example.test',
        older: 'Ame\u0301lie@example.test', // left as it was: cannot sign in until settled
        newer: 'am\u00e9lie@example.test',
        'older-zoe': 'zoe\u0308@example.test',
        zoe: 'zo\u00eb@example.test',
        'first-q': 'q\u1eb9\u0301@example.test',
        'second-q': 'qe\u0323\u0301@example.test',
      });
    } finally {
      await client.end();
      await dataSource.destroy();
    }
  });
});

/** The migration that folds stored e-mails to compatibility form (NFKC, issue 26 item 14), collisions included. */
describe('migration: fold account e-mails', () => {
  it('folds fullwidth and ligature spellings; of a colliding group, the holder of the folded address, else the oldest, gets it', async () => {
    const url = await createEmptyDatabase();
    const dataSource = createDataSource(url, { dbPoolSize: 2, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 10000 });
    await dataSource.initialize();
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await runMigrations(dataSource);
      const after = MIGRATIONS.length - MIGRATIONS.indexOf(FoldAccountEmails1796740000000);
      for (let i = 0; i < after; i++) await dataSource.undoLastMigration({ transaction: 'each' });

      const accounts: [string, string][] = [
        ['fullwidth', '\uff46\uff55ll@example.test'],
        // The folded spelling itself holds the address: it keeps it.
        ['older-ada', '\uff41da@example.test'],
        ['ada', 'ada@example.test'],
        // Nobody holds it (a ligature and a fullwidth letter): the oldest gets it.
        ['ligature', '\ufb01le@example.test'],
        ['fullwidth-f', '\uff46ile@example.test'],
        // Refused at sign-up now; left as it is.
        ['invisible', 'zw\u200bsp@example.test'],
        ['plain', 'plain@example.test'],
      ];
      for (const [index, [name, email]] of accounts.entries()) {
        await client.query(
          "INSERT INTO accounts (email, password_hash, display_name, created_at) VALUES ($1, 'x', $2, now() - make_interval(mins => $3))",
          [email, name, 100 - index],
        );
      }

      expect(await runMigrations(dataSource)).toContain('FoldAccountEmails1796740000000');
      const { rows } = await client.query<{ display_name: string; email: string }>('SELECT display_name, email FROM accounts');
      const email = Object.fromEntries(rows.map((r) => [r.display_name, r.email]));
      expect(email).toEqual({
        fullwidth: 'full@example.test',
        'older-ada': '\uff41da@example.test', // left as it was: cannot sign in until settled
        ada: 'ada@example.test',
        ligature: 'file@example.test',
        'fullwidth-f': '\uff46ile@example.test',
        invisible: 'zw\u200bsp@example.test',
        plain: 'plain@example.test',
      });
    } finally {
      await client.end();
      await dataSource.destroy();
    }
  });
});
