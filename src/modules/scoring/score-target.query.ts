import { around, SqlPart, SqlWrap } from '../../database/sql-part';
import { InsertionRecord, LatestInsertion, PlaySessionRecord, PlayRead, INSERTION_OF_DEVELOPER, SESSION_WITH_LATEST_INSERTION } from '../play-sessions';
import { boardAllOf } from './scoring.repository';

/** The all-time board as a target's statement reads it (JSON: achieved_at as text). */
export type BoardJson = { id: string; score: string; achieved_at: string }[];

/** What a score needs of scoring's own table, read with its target: the board as it stands and the transaction's clock (the score's achievedAt). */
interface BoardColumns {
  board: BoardJson;
  now: Date;
}

/** The all-time board of game `gameId` (an SQL expression) as JSON, from scoring's one board rule (boardAllOf). */
const boardJsonOf = (gameId: string) => `(SELECT coalesce(json_agg(b), '[]'::json) FROM (
     SELECT id, score::text AS score, achieved_at ${boardAllOf(gameId)}) b)`;

/**
 * A player score's target (CONTRACT §9): play-sessions' play session with its latest insertion,
 * whether that insertion is scored, the game's board and the clock. The play session's read is a
 * plain subquery the planner pulls up (the same plan as one flat statement).
 */
const PLAYER_TARGET = new SqlWrap<BoardColumns & { insertionScored: boolean }>(
  `SELECT t.*, EXISTS (SELECT 1 FROM scores sc WHERE sc.insertion_id = t."insertionId") AS "insertionScored",
       now() AS now, ${boardJsonOf('t."gameId"')} AS board
  FROM ({read}) AS t`,
  ['insertionScored', 'now', 'board'],
  0,
);

export type PlayerScoreTarget = PlaySessionRecord & LatestInsertion & BoardColumns & { insertionScored: boolean };

/** Composed once: the player score's play read (the claim, the login state and the target in one statement). */
export const PLAYER_SCORE_READ: PlayRead<PlayerScoreTarget> = PlayRead.of(around(PLAYER_TARGET, SESSION_WITH_LATEST_INSERTION));

/**
 * A trusted score's target: the developer's insertion (play-sessions' read), whether it is scored,
 * the player's saved initials (identity's players, read-only), the game's board and the clock.
 */
const TRUSTED_TARGET = new SqlWrap<BoardColumns & { scored: boolean; playerInitials: string | null }>(
  `SELECT t.*, EXISTS (SELECT 1 FROM scores sc WHERE sc.insertion_id = t.id) AS scored,
       (SELECT p.initials FROM players p WHERE p.id = t."playerId") AS "playerInitials",
       now() AS now, ${boardJsonOf('t."gameId"')} AS board
  FROM ({read}) AS t`,
  ['scored', 'playerInitials', 'now', 'board'],
  0,
);

export type TrustedScoreTarget = InsertionRecord & BoardColumns & { scored: boolean; playerInitials: string | null };

/** Composed once: the trusted score's read ($1 the insertion id, null for a non-uuid; $2 the developer). */
export const TRUSTED_SCORE_READ: SqlPart<TrustedScoreTarget> = around(TRUSTED_TARGET, INSERTION_OF_DEVELOPER);
