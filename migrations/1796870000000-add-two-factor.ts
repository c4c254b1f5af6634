import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor authentication (CONTRACT §20). `two_factor_settings`: one row per account that ever
 * set it up: the TOTP secret in force (`secret`, set with `enabled_at`), a setup not yet confirmed
 * (`pending_secret`), and the last TOTP step the account used (`last_used_step`): a step is
 * accepted only above it, claimed in one UPDATE, so one code never signs in twice.
 * `two_factor_recovery_codes`: the SHA-256 of each single-use recovery code. `login_challenges`:
 * a right password of an account with two-factor on, waiting for the code: the SHA-256 of a random
 * token, valid 5 minutes, ended by its use or by 5 wrong codes; the retention purge deletes them.
 */
export class AddTwoFactor1796870000000 implements MigrationInterface {
  name = 'AddTwoFactor1796870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE two_factor_settings (
        account_id uuid NOT NULL,
        secret text,
        pending_secret text,
        enabled_at timestamptz,
        last_used_step bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT two_factor_settings_pkey PRIMARY KEY (account_id),
        CONSTRAINT two_factor_settings_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id),
        CONSTRAINT two_factor_settings_enabled_has_secret CHECK ((enabled_at IS NULL) = (secret IS NULL))
      );
      CREATE TABLE two_factor_recovery_codes (
        account_id uuid NOT NULL,
        code_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz,
        CONSTRAINT two_factor_recovery_codes_pkey PRIMARY KEY (account_id, code_hash),
        CONSTRAINT two_factor_recovery_codes_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id)
      );
      CREATE TABLE login_challenges (
        challenge_hash bytea NOT NULL,
        account_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        failures integer NOT NULL DEFAULT 0,
        used_at timestamptz,
        CONSTRAINT login_challenges_pkey PRIMARY KEY (challenge_hash),
        CONSTRAINT login_challenges_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id),
        CONSTRAINT login_challenges_failures_range CHECK (failures BETWEEN 0 AND 5)
      );
      CREATE INDEX login_challenges_account_idx ON login_challenges (account_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE login_challenges; DROP TABLE two_factor_recovery_codes; DROP TABLE two_factor_settings;');
  }
}
