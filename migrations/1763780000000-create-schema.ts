import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema of the first release. What must never happen is refused here, by the database
 * itself: unique keys, non-negative balances, an append-only ledger, one score per insertion.
 */
export class CreateSchema1763780000000 implements MigrationInterface {
  name = 'CreateSchema1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_settings (
        key text PRIMARY KEY,
        value text NOT NULL
      );

      -- identity
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        display_name text NOT NULL,
        email_verified_at timestamptz,
        is_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT accounts_display_name_length CHECK (char_length(display_name) BETWEEN 1 AND 32)
      );
      CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

      CREATE TABLE login_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CONSTRAINT login_sessions_token_hash_key UNIQUE (token_hash)
      );
      CREATE INDEX login_sessions_account_idx ON login_sessions (account_id);

      CREATE TABLE email_verification_tokens (
        token_hash bytea PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX email_verification_tokens_account_idx ON email_verification_tokens (account_id);

      CREATE TABLE players (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        display_name text NOT NULL,
        initials text,
        xp integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT players_account_key UNIQUE (account_id),
        CONSTRAINT players_initials_format CHECK (initials ~ '^[A-Z]{3}$'),
        CONSTRAINT players_xp_non_negative CHECK (xp >= 0),
        CONSTRAINT players_display_name_length CHECK (char_length(display_name) BETWEEN 1 AND 32)
      );

      -- wallet: balances are derived from an append-only ledger
      CREATE TABLE wallets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL REFERENCES players(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT wallets_player_key UNIQUE (player_id)
      );

      CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        wallet_id uuid NOT NULL REFERENCES wallets(id),
        seq integer NOT NULL,
        delta integer NOT NULL,
        balance_after bigint NOT NULL,
        kind text NOT NULL,
        reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_entries_wallet_seq_key UNIQUE (wallet_id, seq),
        CONSTRAINT ledger_entries_balance_non_negative CHECK (balance_after >= 0),
        CONSTRAINT ledger_entries_seq_positive CHECK (seq >= 1),
        CONSTRAINT ledger_entries_delta_non_zero CHECK (delta <> 0),
        CONSTRAINT ledger_entries_kind CHECK (kind IN ('credit', 'debit')),
        CONSTRAINT ledger_entries_kind_sign CHECK ((kind = 'credit') = (delta > 0))
      );
      -- "latest entry of a wallet" is the balance: served by the unique (wallet_id, seq) index.

      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger_entries is append-only: % is not allowed', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$;
      CREATE TRIGGER ledger_entries_append_only
        BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

      -- developer portal
      CREATE TABLE developers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id),
        display_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT developers_account_key UNIQUE (account_id)
      );

      CREATE TABLE games (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers(id),
        slug text NOT NULL,
        title text NOT NULL,
        coins_per_credit smallint NOT NULL,
        max_score bigint NOT NULL DEFAULT 9007199254740991,
        status text NOT NULL DEFAULT 'unpublished',
        current_version_id uuid,
        first_published_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT games_slug_key UNIQUE (slug),
        CONSTRAINT games_slug_format CHECK (slug ~ '^[a-z0-9-]{1,64}$'),
        CONSTRAINT games_coins_per_credit_range CHECK (coins_per_credit BETWEEN 1 AND 5),
        CONSTRAINT games_max_score_range CHECK (max_score BETWEEN 0 AND 9007199254740991),
        CONSTRAINT games_status CHECK (status IN ('unpublished', 'published', 'suspended'))
      );
      CREATE INDEX games_developer_idx ON games (developer_id);
      CREATE INDEX games_catalogue_idx ON games (first_published_at DESC, id DESC) WHERE status = 'published';

      CREATE TABLE game_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        game_id uuid NOT NULL REFERENCES games(id),
        label text NOT NULL,
        entry_url text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        reject_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        reviewed_at timestamptz,
        CONSTRAINT game_versions_status CHECK (status IN ('pending', 'approved', 'rejected'))
      );
      CREATE INDEX game_versions_game_idx ON game_versions (game_id, created_at DESC);
      ALTER TABLE games ADD CONSTRAINT games_current_version_fk
        FOREIGN KEY (current_version_id) REFERENCES game_versions(id);

      CREATE TABLE achievements (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        game_id uuid NOT NULL REFERENCES games(id),
        key text NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        icon_key text NOT NULL,
        secret boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'active',
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT achievements_game_key_key UNIQUE (game_id, key),
        CONSTRAINT achievements_game_position_key UNIQUE (game_id, position),
        CONSTRAINT achievements_position_range CHECK (position BETWEEN 1 AND 50),
        CONSTRAINT achievements_key_format CHECK (key ~ '^[a-z0-9][a-z0-9_-]{0,47}$'),
        CONSTRAINT achievements_name_length CHECK (char_length(name) BETWEEN 1 AND 40),
        CONSTRAINT achievements_description_length CHECK (char_length(description) <= 160),
        CONSTRAINT achievements_status CHECK (status IN ('active', 'retired'))
      );

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL REFERENCES developers(id),
        kind text NOT NULL,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash),
        CONSTRAINT api_keys_kind CHECK (kind IN ('live', 'test'))
      );
      CREATE INDEX api_keys_developer_idx ON api_keys (developer_id, created_at DESC);

      -- play sessions and money
      CREATE TABLE play_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        game_id uuid NOT NULL REFERENCES games(id),
        game_version_id uuid NOT NULL REFERENCES game_versions(id),
        player_id uuid NOT NULL REFERENCES players(id),
        player_ref text NOT NULL,
        test_mode boolean NOT NULL,
        coins_per_credit smallint NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        CONSTRAINT play_sessions_player_ref_format CHECK (player_ref ~ '^pr_[0-9a-f]{32}$'),
        CONSTRAINT play_sessions_coins_per_credit_range CHECK (coins_per_credit BETWEEN 1 AND 5)
      );
      CREATE INDEX play_sessions_player_idx ON play_sessions (player_id, started_at DESC);
      CREATE INDEX play_sessions_game_idx ON play_sessions (game_id);

      CREATE TABLE insertions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        play_session_id uuid NOT NULL REFERENCES play_sessions(id),
        game_id uuid NOT NULL REFERENCES games(id),
        player_id uuid NOT NULL REFERENCES players(id),
        ledger_entry_id bigint NOT NULL REFERENCES ledger_entries(id),
        coins integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT insertions_ledger_entry_key UNIQUE (ledger_entry_id),
        CONSTRAINT insertions_coins_positive CHECK (coins >= 1)
      );
      CREATE INDEX insertions_play_session_idx ON insertions (play_session_id, created_at DESC, id DESC);
      CREATE INDEX insertions_game_idx ON insertions (game_id);

      -- Money in thousandths of a US dollar ("mills"): 1 coin = 250, the developer's 70% = 175.
      CREATE TABLE developer_earnings (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        insertion_id uuid NOT NULL REFERENCES insertions(id),
        developer_id uuid NOT NULL REFERENCES developers(id),
        game_id uuid NOT NULL REFERENCES games(id),
        coins integer NOT NULL,
        gross_mills bigint NOT NULL,
        earned_mills bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT developer_earnings_insertion_key UNIQUE (insertion_id),
        CONSTRAINT developer_earnings_amounts CHECK (coins >= 1 AND gross_mills = coins * 250 AND earned_mills * 10 = gross_mills * 7)
      );
      CREATE INDEX developer_earnings_developer_idx ON developer_earnings (developer_id, game_id);

      CREATE TABLE idempotency_keys (
        caller text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        status_code integer,
        response jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (caller, key)
      );
      CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

      -- scores
      CREATE TABLE scores (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        game_id uuid NOT NULL REFERENCES games(id),
        insertion_id uuid NOT NULL REFERENCES insertions(id),
        play_session_id uuid NOT NULL REFERENCES play_sessions(id),
        player_id uuid NOT NULL REFERENCES players(id),
        score bigint NOT NULL,
        source text NOT NULL,
        initials text,
        needs_initials boolean NOT NULL DEFAULT false,
        achieved_at timestamptz NOT NULL DEFAULT now(),
        week_start date NOT NULL,
        CONSTRAINT scores_insertion_key UNIQUE (insertion_id),
        CONSTRAINT scores_score_range CHECK (score BETWEEN 0 AND 9007199254740991),
        CONSTRAINT scores_source CHECK (source IN ('player', 'trusted')),
        CONSTRAINT scores_initials_format CHECK (initials ~ '^[A-Z]{3}$')
      );
      CREATE INDEX scores_board_all_idx ON scores (game_id, score DESC, achieved_at ASC, id) WHERE initials IS NOT NULL;
      CREATE INDEX scores_board_week_idx ON scores (game_id, week_start, score DESC, achieved_at ASC, id) WHERE initials IS NOT NULL;
      CREATE INDEX scores_pending_initials_idx ON scores (player_id) WHERE needs_initials AND initials IS NULL;
      CREATE INDEX scores_play_session_idx ON scores (play_session_id);

      -- achievements
      CREATE TABLE achievement_unlocks (
        player_id uuid NOT NULL REFERENCES players(id),
        achievement_id uuid NOT NULL REFERENCES achievements(id),
        play_session_id uuid NOT NULL REFERENCES play_sessions(id),
        unlocked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (player_id, achievement_id)
      );
      CREATE INDEX achievement_unlocks_achievement_idx ON achievement_unlocks (achievement_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE achievement_unlocks;
      DROP TABLE scores;
      DROP TABLE idempotency_keys;
      DROP TABLE developer_earnings;
      DROP TABLE insertions;
      DROP TABLE play_sessions;
      DROP TABLE api_keys;
      DROP TABLE achievements;
      ALTER TABLE games DROP CONSTRAINT games_current_version_fk;
      DROP TABLE game_versions;
      DROP TABLE games;
      DROP TABLE developers;
      DROP TABLE ledger_entries;
      DROP FUNCTION ledger_entries_append_only();
      DROP TABLE wallets;
      DROP TABLE players;
      DROP TABLE email_verification_tokens;
      DROP TABLE login_sessions;
      DROP TABLE accounts;
      DROP TABLE app_settings;
    `);
  }
}
