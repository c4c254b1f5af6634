import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password reset by mailed link (CONTRACT §20): one row per link, keyed by the SHA-256 of its
 * random token (the token itself is only in the mail), valid until `expires_at` (60 minutes),
 * used once (`used_at`). A newer request deletes the account's unused rows; the retention purge
 * deletes used and expired ones. A request for an e-mail no account has stores a row too, with no
 * account (a decoy no link can use): both answers do the same writes, so their timing is alike.
 */
export class AddPasswordResetTokens1796850000000 implements MigrationInterface {
  name = 'AddPasswordResetTokens1796850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE password_reset_tokens (
        token_hash bytea NOT NULL,
        account_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CONSTRAINT password_reset_tokens_pkey PRIMARY KEY (token_hash),
        CONSTRAINT password_reset_tokens_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id)
      );
      CREATE INDEX password_reset_tokens_account_idx ON password_reset_tokens (account_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE password_reset_tokens;');
  }
}
