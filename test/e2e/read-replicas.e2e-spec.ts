import { Client } from 'pg';
import type { TestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { createDeveloper, createWorldApp, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { withDatabase } from '../support/global-setup';
import { fundPlayer, getBoard, insertCoin, playAndScore, postInitials, startSession } from '../support/play';

/**
 * DATABASE_READ_URLS: the public reads that tolerate lag (catalogue, public game page, boards) go
 * to the replica; money, play sessions and sign-in stay on the primary. The "replica" here is a
 * copy of the primary's database taken once and then marked, so every answer shows which
 * database served it (nothing replicates between the two).
 */
async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: withDatabase(process.env.ARCADE_TEST_SERVER_URL!, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('read replicas', () => {
  let primaryUrl: string;
  let replicaUrl: string;
  let replicaName: string;
  let replica: Client;
  let t: TestApp;
  let slug: string;
  let player: SignedUpUser;

  beforeAll(async () => {
    primaryUrl = await createTestDatabase();
    const setup = await createWorldApp({ databaseUrl: primaryUrl });
    const dev = await createDeveloper(setup);
    slug = (await publishGame(setup, dev, { coinsPerCredit: 1 })).slug;
    player = await signUpVerifiedPlayer(setup);
    await fundPlayer(setup, player, 10);
    const scored = await playAndScore(setup, player, slug, 500);
    if (scored.needsInitials) await postInitials(setup, player, scored.sessionId, scored.scoreId as string, 'PRI');
    await setup.close();

    // The replica: a copy of the primary as it is now, marked so its answers can be told apart.
    replicaName = `${new URL(primaryUrl).pathname.slice(1)}_replica`;
    await admin(`CREATE DATABASE ${replicaName} TEMPLATE ${new URL(primaryUrl).pathname.slice(1)}`);
    replicaUrl = withDatabase(primaryUrl, replicaName);
    replica = new Client({ connectionString: replicaUrl });
    await replica.connect();
    // A replica applies the primary's changes without firing triggers; so do these marks (a wallet's balance follows its ledger otherwise).
    await replica.query('SET session_replication_role = replica');
    await replica.query(`UPDATE games SET title = title || ' (replica)'`);
    await replica.query(`UPDATE scores SET initials = 'REP'`);
    await replica.query(`UPDATE wallets SET balance = 999`);

    t = await createWorldApp({ databaseUrl: primaryUrl, env: { DATABASE_READ_URLS: replicaUrl } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await replica?.end();
  });

  it('serves the catalogue, the public game page and the boards from the replica', async () => {
    const catalogue = await t.http().get('/api/games');
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.games.find((g: { slug: string }) => g.slug === slug).title).toMatch(/ \(replica\)$/);

    const page = await t.http().get(`/api/games/${slug}`);
    expect(page.status).toBe(200);
    expect(page.body.title).toMatch(/ \(replica\)$/);

    for (const period of ['all', 'week'] as const) {
      const board = await getBoard(t, slug, period);
      expect(board.status).toBe(200);
      expect(board.body.scores.map((s: { initials: string }) => s.initials)).toEqual(['REP']);
    }
    const { rows } = await replica.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'arcade-coin-service'",
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it('keeps money, play sessions and sign-in on the primary', async () => {
    const me = await t.http().get('/api/me').set('Cookie', player.cookie);
    expect(me.status).toBe(200);
    expect(me.body.balance).toBe(9);

    const { sessionId } = await startSession(t, player, slug);
    await insertCoin(t, player, sessionId);
    const after = await t.http().get('/api/me').set('Cookie', player.cookie);
    expect(after.body.balance).toBe(8);

    const onPrimary = await t.db.query('SELECT 1 FROM play_sessions WHERE id = $1', [sessionId]);
    const onReplica = await replica.query('SELECT 1 FROM play_sessions WHERE id = $1', [sessionId]);
    expect(onPrimary.rowCount).toBe(1);
    expect(onReplica.rowCount).toBe(0);
  });

  it('answers public reads from the primary while the replica takes no connections', async () => {
    await admin(`ALTER DATABASE ${replicaName} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${replicaName}' AND application_name = 'arcade-coin-service'`);
    try {
      const page = await t.http().get(`/api/games/${slug}`);
      expect(page.status).toBe(200);
      expect(page.body.title).not.toMatch(/replica/);
      const catalogue = await t.http().get('/api/games');
      expect(catalogue.status).toBe(200);
    } finally {
      await admin(`ALTER DATABASE ${replicaName} ALLOW_CONNECTIONS true`);
    }
  });
});
