import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { appDeclarations } from '../../src/app.module';
import { DatabaseConnectivity } from '../../src/database/connectivity';
import { createDataSource } from '../../src/database/data-source';
import { DomainEvents } from '../../src/database/domain-events';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { isDatabaseUnavailable, pgError } from '../../src/errors/database-errors';
import { createTestDatabase } from '../support/database';

/**
 * The unit of work against real PostgreSQL, without HTTP: retries on a real deadlock and a real
 * serialization failure, connections that broke are not pooled again, and after-commit work (and
 * the domain events built on it) never runs for a transaction that rolled back.
 */
const POOL = { dbPoolSize: 4, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 5000 };

/** Resolves once `count` parties have arrived. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('UnitOfWork', () => {
  let url: string;
  let dataSource: DataSource;
  let uow: UnitOfWork;
  let probe: Client;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    url = await createTestDatabase();
    dataSource = createDataSource(url, POOL);
    await dataSource.initialize();
    uow = new UnitOfWork(dataSource, new DatabaseConnectivity());
    probe = new Client({ connectionString: url });
    await probe.connect();
    await probe.query('CREATE TABLE uow_probe (id integer PRIMARY KEY, n integer NOT NULL)');
  });

  beforeEach(async () => {
    await probe.query('TRUNCATE uow_probe');
    await probe.query('INSERT INTO uow_probe VALUES (1, 0), (2, 0)');
  });

  afterAll(async () => {
    await probe?.end();
    await dataSource?.destroy();
  });

  const counts = async () => (await probe.query<{ id: number; n: number }>('SELECT id, n FROM uow_probe ORDER BY id')).rows;

  it('runs a transaction that deadlocked once more, so both sides commit exactly once', async () => {
    const attempts = [0, 0];
    const bothHoldOneRow = barrier(2);
    // First attempts lock crosswise and wait for each other; a retry locks in one order.
    const crosswise = (side: 0 | 1, first: number, second: number, add: number) =>
      uow.run(async () => {
        attempts[side] += 1;
        const [a, b] = attempts[side] === 1 ? [first, second] : [1, 2];
        await uow.query('UPDATE uow_probe SET n = n + $2 WHERE id = $1', [a, add]);
        if (attempts[side] === 1) await bothHoldOneRow();
        await uow.query('UPDATE uow_probe SET n = n + $2 WHERE id = $1', [b, add]);
      });

    await Promise.all([crosswise(0, 1, 2, 1), crosswise(1, 2, 1, 10)]);

    // PostgreSQL aborted a side with 40P01 (on a busy machine sometimes both); each aborted side
    // ran once more, and each side's change is in exactly once.
    expect(Math.max(...attempts)).toBe(2);
    expect(await counts()).toEqual([{ id: 1, n: 11 }, { id: 2, n: 11 }]);
  });

  it('runs a transaction that hit a serialization failure once more', async () => {
    const attempts = [0, 0];
    const bothRead = barrier(2);
    let firstCommitted: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (firstCommitted = resolve));
    // Write skew at SERIALIZABLE: each reads both rows, then writes the one the other read. Side 1
    // writes only once side 0 has committed, so PostgreSQL must abort side 1 (and only side 1: two
    // sides writing at the same moment may both be aborted, and then their retries race again).
    const skew = (side: 0 | 1, target: number) =>
      uow.run(async () => {
        attempts[side] += 1;
        await uow.query('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE');
        const [{ total }] = await uow.query<{ total: number }>('SELECT sum(n)::int AS total FROM uow_probe');
        if (attempts[side] === 1) await bothRead();
        if (side === 1 && attempts[side] === 1) await first;
        await uow.query('UPDATE uow_probe SET n = $2 WHERE id = $1', [target, total + 1]);
      });

    await Promise.all([skew(0, 1).then(() => firstCommitted()), skew(1, 2)]);

    expect(attempts).toEqual([1, 2]);
    // The retried side saw the other's committed write: the result of running them one by one.
    expect((await counts()).map((r) => r.n).sort()).toEqual([1, 2]);
  });

  it('gives up after the second failure with an error answered 503, and commits nothing', async () => {
    let attempts = 0;
    const failing = uow.run(async () => {
      attempts += 1;
      await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = 1');
      await uow.query("DO $$ BEGIN RAISE EXCEPTION 'lost again' USING ERRCODE = 'serialization_failure'; END $$");
    });

    const error = await failing.catch((e: unknown) => e);
    expect(pgError(error).code).toBe('40001');
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(attempts).toBe(2);
    expect(await counts()).toEqual([{ id: 1, n: 0 }, { id: 2, n: 0 }]);
  });

  it('refuses a write that must be part of a transaction outside one', async () => {
    expect(() => uow.requireTransaction()).toThrow(/inside UnitOfWork.run/);
    await uow.run(async () => expect(() => uow.requireTransaction()).not.toThrow());
  });

  it('gives the entity manager of the transaction inside run(), the data source\'s outside', async () => {
    expect(uow.manager).toBe(dataSource.manager);
    await uow.run(async () => {
      expect(uow.manager).not.toBe(dataSource.manager);
      await uow.manager.query('UPDATE uow_probe SET n = 5 WHERE id = 1');
      // The manager and query() share the transaction's connection: the update is visible here.
      expect(await uow.one('SELECT n FROM uow_probe WHERE id = 1')).toEqual({ n: 5 });
    });
  });

  describe('after commit', () => {
    it('runs callbacks after the outermost COMMIT, when the transaction\'s rows are visible to others', async () => {
      let inTransactionWhenCalled: boolean | undefined;
      let seenByOthers!: Promise<number>;
      await uow.run(async () => {
        await uow.query('UPDATE uow_probe SET n = 7 WHERE id = 1');
        await uow.run(async () => {
          uow.afterCommit(() => {
            inTransactionWhenCalled = uow.inTransaction;
            seenByOthers = probe.query<{ n: number }>('SELECT n FROM uow_probe WHERE id = 1').then((r) => r.rows[0]!.n);
          });
        });
        expect(inTransactionWhenCalled).toBeUndefined();
      });
      expect(inTransactionWhenCalled).toBe(false);
      expect(await seenByOthers).toBe(7);
    });

    it('drops callbacks of a transaction that rolled back', async () => {
      const calls: string[] = [];
      await expect(
        uow.run(async () => {
          await uow.query('UPDATE uow_probe SET n = 9 WHERE id = 1');
          uow.afterCommit(() => calls.push('after'));
          throw new Error('use case refused');
        }),
      ).rejects.toThrow('use case refused');
      await tick();
      expect(calls).toEqual([]);
      expect(await counts()).toEqual([{ id: 1, n: 0 }, { id: 2, n: 0 }]);
    });

    it('delivers a retried transaction\'s callbacks once, from the attempt that committed', async () => {
      const delivered: number[] = [];
      let attempts = 0;
      const bothHoldOneRow = barrier(2);
      let otherAttempts = 0;
      const other = uow.run(async () => {
        otherAttempts += 1;
        const [a, b] = otherAttempts === 1 ? [2, 1] : [1, 2];
        await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = $1', [a]);
        if (otherAttempts === 1) await bothHoldOneRow();
        await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = $1', [b]);
      });
      const tracked = uow.run(async () => {
        attempts += 1;
        const attempt = attempts;
        uow.afterCommit(() => delivered.push(attempt));
        await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = 1');
        if (attempt === 1) await bothHoldOneRow();
        await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = 2');
      });
      await Promise.all([other, tracked]);
      // Whichever side PostgreSQL aborted, the tracked callback ran once, for the attempt that committed.
      expect(delivered).toEqual([attempts]);
    });

    it('runs a callback at once outside a transaction, and a failing callback does not undo the commit', async () => {
      const calls: string[] = [];
      uow.afterCommit(() => calls.push('now'));
      expect(calls).toEqual(['now']);
      await expect(
        uow.run(async () => {
          await uow.query('UPDATE uow_probe SET n = 3 WHERE id = 2');
          uow.afterCommit(() => {
            throw new Error('listener bug');
          });
          uow.afterCommit(() => calls.push('second'));
          return 'committed';
        }),
      ).resolves.toBe('committed');
      expect(calls).toEqual(['now', 'second']);
      expect((await counts())[1]).toEqual({ id: 2, n: 3 });
    });

    it('delivers domain events after commit and never for a rollback', async () => {
      const events = new DomainEvents(uow, appDeclarations());
      const received: string[] = [];
      events.on('game.status-changed', ({ gameId }) => received.push(gameId));

      await expect(
        uow.run(async () => {
          events.publish('game.status-changed', { gameId: 'rolled-back' });
          throw new Error('refused after publishing');
        }),
      ).rejects.toThrow('refused after publishing');
      await uow.run(async () => {
        events.publish('game.status-changed', { gameId: 'committed' });
        expect(received).toEqual([]);
      });
      expect(received).toEqual(['committed']);
    });

    it('runs in-transaction event handlers on the publisher\'s transaction: both writes commit, or neither', async () => {
      const events = new DomainEvents(uow, appDeclarations());
      events.onInTransaction('player.linked', async ({ playerId }) => {
        await uow.query('UPDATE uow_probe SET n = n + 1 WHERE id = $1', [Number(playerId)]);
      });

      await expect(
        uow.run(async () => {
          await uow.query('UPDATE uow_probe SET n = n + 10 WHERE id = 1');
          await events.publishInTransaction('player.linked', { accountId: 'a', playerId: '2' });
          expect((await uow.query('SELECT n FROM uow_probe WHERE id = 2'))[0]).toEqual({ n: 1 });
          throw new Error('refused after publishing');
        }),
      ).rejects.toThrow('refused after publishing');
      expect(await counts()).toEqual([{ id: 1, n: 0 }, { id: 2, n: 0 }]);

      await uow.run(async () => {
        await uow.query('UPDATE uow_probe SET n = n + 10 WHERE id = 1');
        await events.publishInTransaction('player.linked', { accountId: 'a', playerId: '2' });
      });
      expect(await counts()).toEqual([{ id: 1, n: 10 }, { id: 2, n: 1 }]);
    });

    it('rolls the publisher back when an in-transaction handler throws, and refuses an event nobody handles', async () => {
      const events = new DomainEvents(uow, appDeclarations());
      await expect(
        uow.run(async () => {
          await uow.query('UPDATE uow_probe SET n = n + 10 WHERE id = 1');
          await events.publishInTransaction('player.linked', { accountId: 'a', playerId: '2' });
        }),
      ).rejects.toThrow("No handler for the in-transaction event 'player.linked'");
      events.onInTransaction('player.linked', async () => {
        throw new Error('handler refused');
      });
      await expect(
        uow.run(async () => {
          await uow.query('UPDATE uow_probe SET n = n + 10 WHERE id = 1');
          await events.publishInTransaction('player.linked', { accountId: 'a', playerId: '2' });
        }),
      ).rejects.toThrow('handler refused');
      await expect(events.publishInTransaction('player.linked', { accountId: 'a', playerId: '2' })).rejects.toThrow('must run inside UnitOfWork.run()');
      expect(await counts()).toEqual([{ id: 1, n: 0 }, { id: 2, n: 0 }]);
    });
  });

  describe('broken connections', () => {
    let small: DataSource;
    let smallUow: UnitOfWork;

    beforeAll(async () => {
      // One connection, a 200 ms statement timeout and so a 1.2 s client-side read timeout.
      small = createDataSource(url, { dbPoolSize: 1, dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 200 });
      await small.initialize();
      smallUow = new UnitOfWork(small, new DatabaseConnectivity());
    });
    afterAll(async () => {
      await small?.destroy();
    });

    const backend = async () => (await smallUow.run(() => smallUow.one<{ pid: number }>('SELECT pg_backend_pid() AS pid')))!.pid;
    const alive = async (pid: number) => (await probe.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 1;

    it('ends a connection whose statement outlived the client-side timeout instead of pooling it again', async () => {
      const before = await backend();
      const error = await smallUow
        .run(async () => {
          await smallUow.query('UPDATE uow_probe SET n = 42 WHERE id = 1');
          await smallUow.query('SET LOCAL statement_timeout = 0');
          await smallUow.query('SELECT pg_sleep(2)');
        })
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);

      // The pool's only connection is a new one, outside any transaction, with its own settings.
      const after = await backend();
      expect(after).not.toBe(before);
      expect(await smallUow.run(() => smallUow.one('SELECT current_setting($1) AS timeout', ['statement_timeout']))).toEqual({ timeout: '200ms' });
      // The old backend saw its client go and rolled back: the update never committed.
      for (let i = 0; i < 50 && (await alive(before)); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await alive(before)).toBe(false);
      expect((await counts())[0]).toEqual({ id: 1, n: 0 });
    });

    it('replaces a connection terminated in the middle of a transaction, with no process-level error', async () => {
      const error = await smallUow
        .run(async () => {
          const { pid } = (await smallUow.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!;
          await smallUow.query('UPDATE uow_probe SET n = 13 WHERE id = 2');
          await probe.query('SELECT pg_terminate_backend($1)', [pid]);
          await smallUow.query('SELECT 1');
        })
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await smallUow.run(() => smallUow.one('SELECT 1 AS ok'))).toEqual({ ok: 1 });
      expect((await counts())[1]).toEqual({ id: 2, n: 0 });
    });

    it('answers a connection lost between the last statement and COMMIT as unavailable, committing nothing', async () => {
      const error = await smallUow
        .run(async () => {
          const { pid } = (await smallUow.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!;
          await smallUow.query('UPDATE uow_probe SET n = 21 WHERE id = 1');
          await probe.query('SELECT pg_terminate_backend($1)', [pid]);
          // No statement in flight: the client reports the loss as an event, the runner lets go.
          await new Promise((r) => setTimeout(r, 300));
        })
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect((await counts())[0]).toEqual({ id: 1, n: 0 });
      expect(await smallUow.run(() => smallUow.one('SELECT 1 AS ok'))).toEqual({ ok: 1 });
    });

    it('pools a connection again after an ordinary error rolled its transaction back', async () => {
      const before = await backend();
      await expect(smallUow.run(async () => smallUow.query('SELECT 1/0'))).rejects.toThrow(/division by zero/);
      expect(await backend()).toBe(before);
    });
  });
});
