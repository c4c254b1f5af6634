import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

/** Five wrong codes end a challenge (CONTRACT §20). */
export const CHALLENGE_MAX_FAILURES = 5;

const LIVE = `used_at IS NULL AND expires_at > now() AND failures < ${CHALLENGE_MAX_FAILURES}`;

/** `login_challenges`: a right password waiting for its two-factor code, by the SHA-256 of its token. */
@Injectable()
export class LoginChallengeRepository {
  constructor(private readonly uow: UnitOfWork) {}

  async insert(accountId: string, challengeHash: Buffer, ttlSeconds: number): Promise<void> {
    await this.uow.query(
      `INSERT INTO login_challenges (challenge_hash, account_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision))`,
      [challengeHash, accountId, ttlSeconds],
    );
  }

  /** A live challenge's account and e-mail; undefined for an unknown, used, ended or expired one. */
  find(challengeHash: Buffer): Promise<{ account_id: string; email: string } | undefined> {
    return this.uow.one(
      `SELECT c.account_id, a.email FROM login_challenges c JOIN accounts a ON a.id = c.account_id
        WHERE c.challenge_hash = $1 AND c.used_at IS NULL AND c.expires_at > now() AND c.failures < ${CHALLENGE_MAX_FAILURES}`,
      [challengeHash],
    );
  }

  /** Locks a live challenge for the rest of the transaction (one code checked at a time); its account, or undefined. */
  async lockLive(challengeHash: Buffer): Promise<string | undefined> {
    this.uow.requireTransaction();
    const row = await this.uow.one<{ account_id: string }>(`SELECT account_id FROM login_challenges WHERE challenge_hash = $1 AND ${LIVE} FOR UPDATE`, [challengeHash]);
    return row?.account_id;
  }

  async markUsed(challengeHash: Buffer): Promise<void> {
    await this.uow.query('UPDATE login_challenges SET used_at = now() WHERE challenge_hash = $1', [challengeHash]);
  }

  async countFailure(challengeHash: Buffer): Promise<void> {
    await this.uow.query(`UPDATE login_challenges SET failures = failures + 1 WHERE challenge_hash = $1 AND failures < ${CHALLENGE_MAX_FAILURES}`, [challengeHash]);
  }

  /** Deletes up to `limit` challenges used, ended by wrong codes, or expired before `now`; returns how many. */
  async purgeBatch(now: Date, limit: number): Promise<number> {
    const rows = await this.uow.query(
      `DELETE FROM login_challenges WHERE challenge_hash IN (
         SELECT challenge_hash FROM login_challenges
          WHERE used_at IS NOT NULL OR expires_at < $1 OR failures >= ${CHALLENGE_MAX_FAILURES} LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING 1`,
      [now, limit],
    );
    return rows.length;
  }
}
