import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { requestFingerprint } from '../src/modules/idempotency/idempotency.fingerprint';
import { chainHashSql, developerLedgerAppendSql, ledgerAppendSql } from '../src/modules/wallet/ledger-append';
import type { Measurement } from './load';
import { sampleMax } from './load';

/**
 * The database ceiling of insert-coin: the statements the service sends for one paid insert-coin,
 * in the same order, as named prepared statements, straight through `pg` with no HTTP and no
 * framework: LoginSessionRepository.resolve, then one transaction: the key's claim with the play
 * session's read (PlayActionService: IdempotencyRepository.claimWith of ACTIVE_PLAY_READ), the money
 * statement with the stored answer riding on it (WalletRepository.payForInsertion +
 * IdempotencyRepository.storeAnswer), COMMIT. Copied as the service composes them (keep in step).
 *
 * `core` runs only the money transaction (BEGIN, the payment statement, COMMIT), the pgbench-style
 * figure of issue 20; it is kept as it was when the issue set the target against it (CORE_PAY below,
 * which predates the wallet freeze's `frozen_at IS NULL`), so the ratio stays honest, except for what
 * issue 30 made part of every debit: the hash chain and the developer ledger's entry.
 * The census (queries.ts) checks the full sequence's texts against what the service really sent.
 */
const AUTH = `SELECT s.id AS login_session_id, a.id AS account_id, a.email, a.email_verified_at IS NOT NULL AS email_verified,
              a.display_name, a.is_admin, d.id AS developer_id, p.id AS player_id, w.id AS wallet_id, p.initials AS player_initials,
              w.frozen_at IS NOT NULL AS wallet_frozen
         FROM login_sessions s
         JOIN accounts a ON a.id = s.account_id
         LEFT JOIN developers d ON d.account_id = a.id
         LEFT JOIN players p ON p.account_id = a.id
         LEFT JOIN wallets w ON w.player_id = p.id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND a.banned_at IS NULL`;
const CLAIM_AND_SESSION = `WITH claim AS (
    INSERT INTO idempotency_keys (caller, key, fingerprint) VALUES ($3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT EXISTS (SELECT 1 FROM claim) AS "idem_claimed", r.*
    FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT true AS "idem_found", x.* FROM (SELECT ps.id, ps.game_id AS "gameId", ps.game_version_id AS "gameVersionId", g.developer_id AS "developerId",
  ps.player_id AS "playerId", ps.player_ref AS "playerRef", ps.test_mode AS "testMode", ps.coins_per_credit AS "coinsPerCredit",
  g.max_score::float8 AS "maxScore", ps.started_at AS "startedAt", ps.last_seen_at AS "lastSeenAt", ps.ended_at AS "endedAt",
  (ps.ended_at IS NULL AND ps.last_seen_at > now() - make_interval(secs => $2)) AS active FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1) AS x) AS r ON true`;
// The money statement as WalletRepository composes it: the wallet's append (with its hash chain) and
// the earning's developer append (issue 30) come from ledger-append.ts itself, with the repository's options.
const EARNING_APPEND = developerLedgerAppendSql('earning', {
  as: 'earning_entry', after: 'insertion',
  params: { developerId: '$7', amountMills: '$9', names: '$3', insertion: { walletId: '$1', gameId: '$5', coins: '$2', grossMills: '$8' } },
});
const PAY_AND_ANSWER = `${ledgerAppendSql('debit', { as: 'debit', onlyIfCovered: true }).text}, insertion AS (
         INSERT INTO insertions (id, play_session_id, game_id, player_id, ledger_entry_id, coins)
         SELECT $3::uuid, $4::uuid, $5::uuid, $6::uuid, debit.id, $2::integer FROM debit
         RETURNING id, created_at
       ), ${EARNING_APPEND}, touched AS (
         UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
          WHERE id = $4::uuid AND EXISTS (SELECT 1 FROM insertion)
         RETURNING id
       ), rider_0 AS (UPDATE idempotency_keys SET status_code = $12, response = $13::jsonb || jsonb_build_object('balance', (SELECT balance_after FROM debit))
  WHERE caller = $10 AND key = $11 AND EXISTS (SELECT 1 FROM debit) RETURNING 1)
SELECT (SELECT balance_after FROM debit) AS balance_after`;
// Issue 30 chained every ledger entry and added the developer ledger: an entry without its hash is
// refused now, so the core statement carries the chain and the earning's entry (what the money costs
// since), and is otherwise issue 20's text (no freeze check, no rider).
const CORE_HASH = chainHashSql('wallet', 'last_hash', {
  wallet_id: 'id', seq: 'last_seq + 1', kind: "'debit'", delta: '-$2::integer', balance_after: 'balance - $2::integer', reason: 'NULL', purchase_id: 'NULL', created_at: 'now()',
});
const CORE_PAY = `WITH head AS (
         UPDATE wallets SET balance = balance - $2::integer, last_seq = last_seq + 1, last_hash = ${CORE_HASH}
          WHERE id = $1 AND balance >= $2::integer
         RETURNING id, last_seq, balance, last_hash
       ), debit AS (
         INSERT INTO ledger_entries (wallet_id, seq, delta, balance_after, kind, created_at, hash)
         SELECT head.id, head.last_seq, -$2::integer, head.balance, 'debit', now(), head.last_hash FROM head
         RETURNING id, balance_after
       ), insertion AS (
         INSERT INTO insertions (id, play_session_id, game_id, player_id, ledger_entry_id, coins)
         SELECT $3::uuid, $4::uuid, $5::uuid, $6::uuid, debit.id, $2::integer FROM debit
         RETURNING id, created_at
       ), ${EARNING_APPEND}, touched AS (
         UPDATE play_sessions SET last_seen_at = GREATEST(last_seen_at, now())
          WHERE id = $4::uuid AND EXISTS (SELECT 1 FROM insertion)
         RETURNING id
       )
       SELECT (SELECT balance_after FROM debit) AS balance_after, (SELECT created_at FROM insertion) AS created_at`;

/** The statements of one paid insert-coin, in order, as the service sends them (BEGIN and COMMIT aside). */
export const INSERT_COIN_STATEMENTS = [AUTH, CLAIM_AND_SESSION, PAY_AND_ANSWER];

const names = new Map<string, string>();
function q(client: Client, text: string, values: unknown[]) {
  let name = names.get(text);
  if (!name) names.set(text, (name = 'b' + createHash('sha1').update(text).digest('hex').slice(0, 20)));
  return client.query({ name, text, values });
}

export interface BaselineSession {
  sessionId: string;
  /** `auth_session=<token>` */
  cookie: string;
}

export interface BaselineTarget {
  sessionId: string;
  tokenHash: Buffer;
  accountId: string;
  walletId: string;
  playerId: string;
  gameId: string;
  developerId: string;
}

/** Resolves what the service would know about each session before the load (not measured). */
export async function prepareBaseline(url: string, sessions: BaselineSession[]): Promise<BaselineTarget[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const out: BaselineTarget[] = [];
    for (const s of sessions) {
      const tokenHash = createHash('sha256').update(s.cookie.slice('auth_session='.length)).digest();
      const { rows } = await client.query(
        `SELECT p.account_id, w.id AS wallet_id, p.id AS player_id, ps.game_id, g.developer_id
           FROM play_sessions ps JOIN players p ON p.id = ps.player_id JOIN wallets w ON w.player_id = p.id JOIN games g ON g.id = ps.game_id
          WHERE ps.id = $1`,
        [s.sessionId],
      );
      const r = rows[0];
      out.push({ sessionId: s.sessionId, tokenHash, accountId: r.account_id, walletId: r.wallet_id, playerId: r.player_id, gameId: r.game_id, developerId: r.developer_id });
    }
    return out;
  } finally {
    await client.end();
  }
}

async function insertCoin(client: Client, t: BaselineTarget, full: boolean, seq: number): Promise<void> {
  const caller = `account:${t.accountId}`;
  const key = `baseline-${process.pid}-${seq}`;
  const fingerprint = requestFingerprint('insert-coin', t.sessionId, { idempotencyKey: key });
  if (full) await q(client, AUTH, [t.tokenHash]);
  await client.query('BEGIN');
  try {
    const insertionId = randomUUID();
    if (full) {
      const { rows: claimed } = await q(client, CLAIM_AND_SESSION, [t.sessionId, 1800, caller, key, fingerprint]);
      if (!claimed[0].idem_claimed || !claimed[0].idem_found) throw new Error('baseline claim or play session missing');
      const answer = { insertionId, creditsGranted: 1, coinsSpent: 1, balance: 0, testMode: false, replayed: false };
      const { rows } = await q(client, PAY_AND_ANSWER, [t.walletId, 1, insertionId, t.sessionId, t.gameId, t.playerId, t.developerId, 250, 175, caller, key, 200, JSON.stringify(answer)]);
      if (rows[0].balance_after === null) throw new Error('baseline wallet ran out of coins');
    } else {
      const { rows } = await q(client, CORE_PAY, [t.walletId, 1, insertionId, t.sessionId, t.gameId, t.playerId, t.developerId, 250, 175]);
      if (rows[0].balance_after === null) throw new Error('baseline wallet ran out of coins');
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * `connections` workers, each with its own connection, run the sequence back to back over the
 * targets round-robin for `seconds` (after `warmupSeconds` not measured).
 */
export async function runSqlBaseline(
  url: string,
  targets: BaselineTarget[],
  options: { connections: number; seconds: number; warmupSeconds: number; full: boolean; rssMb: () => number },
): Promise<Measurement> {
  const clients = await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const c = new Client({ connectionString: url, application_name: 'arcade-bench-baseline' });
      await c.connect();
      return c;
    }),
  );
  let next = 0;
  let seq = 0;
  const run = async (seconds: number, latencies: number[] | null) => {
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < until) {
          const t = targets[next++ % targets.length];
          const start = performance.now();
          try {
            await insertCoin(client, t, options.full, ++seq);
            latencies?.push(performance.now() - start);
          } catch {
            errors++;
          }
        }
      }),
    );
    return errors;
  };
  try {
    if (options.warmupSeconds) await run(options.warmupSeconds, null);
    const latencies: number[] = [];
    const stop = sampleMax(options.rssMb);
    const started = performance.now();
    const errors = await run(options.seconds, latencies);
    const seconds = (performance.now() - started) / 1000;
    const rssMaxMb = stop();
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      seconds,
      rps: latencies.length / seconds,
      p50: Math.round(percentile(latencies, 50) * 100) / 100,
      p99: Math.round(percentile(latencies, 99) * 100) / 100,
      errors,
      statuses: {},
      rssMaxMb,
    };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
