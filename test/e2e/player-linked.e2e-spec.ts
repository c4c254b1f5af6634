import { DomainEvents } from '../../src/database/domain-events';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { AccountsService } from '../../src/modules/identity';
import { createTestApp, TestApp } from '../support/app';
import { signUpPlayer } from '../support/factories';

/**
 * Identity does not know the wallet module: it publishes 'player.linked', an in-transaction event,
 * and the wallet module opens the wallet on the same transaction. A player never exists without a
 * wallet: both commit, or neither does.
 */
describe('player linked -> wallet opened', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let accounts: AccountsService;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.nest.get(UnitOfWork, { strict: false });
    accounts = t.app.nest.get(AccountsService, { strict: false });
  });
  afterAll(async () => t.close());

  const rowsOf = async (accountId: string) => {
    const players = await t.db.query<{ id: string }>('SELECT id FROM players WHERE account_id = $1', [accountId]);
    const wallets = await t.db.query('SELECT w.id FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1', [accountId]);
    return { players: players.rowCount, wallets: wallets.rowCount };
  };

  it('POST /api/me/player creates the player and its wallet (balance 0)', async () => {
    const user = await signUpPlayer(t, { linked: false });
    expect(await rowsOf(user.accountId)).toEqual({ players: 0, wallets: 0 });
    const res = await t.http().post('/api/me/player').set('Cookie', user.cookie).send({ displayName: 'Linked' });
    expect(res.status).toBe(201);
    expect(res.body.balance).toBe(0);
    expect(await rowsOf(user.accountId)).toEqual({ players: 1, wallets: 1 });
  });

  it('a transaction that rolls back after linking leaves neither the player nor its wallet', async () => {
    const user = await signUpPlayer(t, { linked: false });
    await expect(
      uow.run(async () => {
        expect(await accounts.linkInTransaction(user.accountId, 'Rolled back')).toBe(true);
        // Inside the transaction both rows are there: the wallet opened on the publisher's transaction.
        const inside = await uow.one<{ n: number }>(
          'SELECT count(*)::int AS n FROM wallets w JOIN players p ON p.id = w.player_id WHERE p.account_id = $1',
          [user.accountId],
        );
        expect(inside?.n).toBe(1);
        throw new Error('refused after linking');
      }),
    ).rejects.toThrow('refused after linking');
    expect(await rowsOf(user.accountId)).toEqual({ players: 0, wallets: 0 });
  });

  // Last: it adds a failing handler to this app's events.
  it('a wallet that cannot open rolls the player back: the link answers 500 and nothing was written', async () => {
    const user = await signUpPlayer(t, { linked: false });
    t.app.nest.get(DomainEvents, { strict: false }).onInTransaction('player.linked', async () => {
      throw new Error('the wallet could not open');
    });
    const res = await t.http().post('/api/me/player').set('Cookie', user.cookie).send({ displayName: 'Refused' });
    expect(res.status).toBe(500);
    expect(await rowsOf(user.accountId)).toEqual({ players: 0, wallets: 0 });
  });
});
