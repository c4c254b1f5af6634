import { hash, randomBytes } from 'node:crypto';

/**
 * The one kind of secret token identity hands out (login sessions, e-mail verification links,
 * password-reset links): 32 random bytes in base64url, kept in the database only as its SHA-256.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

/** Uses a live single-use link token of `table` once: `$1` its hash; returns `account_id`. */
export function useTokenSql(table: 'email_verification_tokens' | 'password_reset_tokens' | 'email_change_tokens'): string {
  return `UPDATE ${table} SET used_at = now()
   WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING account_id`;
}

/** Deletes up to `$2` tokens of `table` used, or expired before `$1` (the retention purge). */
export function purgeTokensSql(table: 'email_verification_tokens' | 'password_reset_tokens' | 'email_change_tokens'): string {
  return `DELETE FROM ${table} WHERE token_hash IN (
     SELECT token_hash FROM ${table} WHERE used_at IS NOT NULL OR expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
   ) RETURNING 1`;
}
