import { Optional, SqlPart, SqlWrap, aroundOptional } from '../../database/sql-part';
import { UnauthenticatedError } from '../../errors/app-error';

/**
 * The login session checked by the statements of a route that trusts a kept one
 * (`PlayerAuth({ sessionCheckedByStatement: true })`), so that a sign-out, ban or expiry made
 * anywhere takes effect on its very next call (CONTRACT §18 "at once").
 */

/**
 * The one definition of a live login session, over aliases of `login_sessions` and its
 * `accounts` row: not revoked, not expired, the account not banned. Every read of a session uses it
 * (the guards' resolve, the statements below).
 */
export function liveLoginCondition(session: string, account: string): string {
  return `${session}.revoked_at IS NULL AND ${session}.expires_at > now() AND ${account}.banned_at IS NULL`;
}

/** SQL that is true while the login session `param` names is live (liveLoginCondition). */
export function liveLoginSessionSql(param: string): string {
  return `EXISTS (SELECT 1 FROM login_sessions ls JOIN accounts la ON la.id = ls.account_id
                   WHERE ls.id = ${param} AND ${liveLoginCondition('ls', 'la')})`;
}

/**
 * What a kept login session may no longer say, read with the route's first statement: `loginLive`
 * (as liveLoginSessionSql; null when the session's row is gone), `walletFrozen` (CONTRACT §19
 * freezes and lifts at once) and `playerInitials` (saved initials are taken "from then on", §16.8).
 */
export interface LoginState {
  loginLive: boolean | null;
  walletFrozen: boolean | null;
  playerInitials: string | null;
}

/** Always one row: the login state of session `$+1`, then the read's columns (null when it found none). */
const WITH_LOGIN_STATE = new SqlWrap<LoginState>(
  `SELECT login."loginLive", login."walletFrozen", login."playerInitials", r.*
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT ${liveLoginCondition('ls', 'la')} AS "loginLive",
             lw.frozen_at IS NOT NULL AS "walletFrozen", lp.initials AS "playerInitials"
        FROM login_sessions ls JOIN accounts la ON la.id = ls.account_id
        LEFT JOIN players lp ON lp.account_id = la.id LEFT JOIN wallets lw ON lw.player_id = lp.id
       WHERE ls.id = $+1) AS login ON true
    LEFT JOIN LATERAL ({read}) AS r ON true`,
  ['loginLive', 'walletFrozen', 'playerInitials'],
  1,
);

/** A row of `withLoginState(read)`: the login state, and the read's columns (all null when it found none). */
export type WithLoginState<R extends object> = LoginState & Optional<R>;

/**
 * `read` (at most one row) with the caller's login state (LoginState), in the same statement; the
 * text is composed once per read (call it at module load). Its values: the read's, then the login
 * session's id.
 */
export function withLoginState<R extends object>(read: SqlPart<R>): SqlPart<WithLoginState<R>> {
  return aroundOptional(WITH_LOGIN_STATE, read);
}

/** 401 when the kept login session of a `withLoginState` row is over (signed out, banned or expired since). */
export function requireLiveLogin(row: LoginState): void {
  if (!row.loginLive) throw new UnauthenticatedError('Sign in first.');
}
