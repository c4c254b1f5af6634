import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Changing the e-mail address (CONTRACT §20): one row per confirmation link, keyed by the SHA-256
 * of its random token (the token itself is only in the mail to the new address), with the address
 * it confirms, valid until `expires_at` (24 hours), used once (`used_at`). A newer request deletes
 * the account's unused rows; the retention purge deletes used and expired ones. The address is not
 * unique here: whoever confirms first takes it, and accounts_email_key decides that race.
 */
export class AddEmailChangeTokens1796860000000 implements MigrationInterface {
  name = 'AddEmailChangeTokens1796860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_change_tokens (
        token_hash bytea NOT NULL,
        account_id uuid NOT NULL,
        new_email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CONSTRAINT email_change_tokens_pkey PRIMARY KEY (token_hash),
        CONSTRAINT email_change_tokens_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id)
      );
      CREATE INDEX email_change_tokens_account_idx ON email_change_tokens (account_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE email_change_tokens;');
  }
}
