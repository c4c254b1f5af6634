import { SqlPart } from '../../database/sql-part';

/*
 * The play sessions' reads as typed SQL parts (src/database/sql-part.ts): the play action sends
 * them inside the claim's statement, scoring wraps them with its board. Texts are constants.
 */

/**
 * What every play action needs of its play session: whose it is, whether it is still active (by
 * the database clock), its mode and price, and the game and developer a payment names.
 */
export interface PlaySessionCore {
  id: string;
  gameId: string;
  developerId: string;
  playerId: string;
  testMode: boolean;
  coinsPerCredit: number;
  /** Not ended and seen within the idle timeout. */
  active: boolean;
}

/** A play session with its game's developer and whether it is still active (by the database clock). */
export interface PlaySessionRecord extends PlaySessionCore {
  gameVersionId: string;
  playerRef: string;
  /** The game's maxScore now (scores are checked against it). */
  maxScore: number;
  startedAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
}

export interface InsertionRecord {
  id: string;
  playSessionId: string;
  gameId: string;
  developerId: string;
  playerId: string;
  playerRef: string;
  coins: number;
  /** The game's maxScore now. */
  maxScore: number;
  createdAt: Date;
  /** When an admin voided it (CONTRACT §19); null otherwise. */
  voidedAt: Date | null;
}

/** Not ended and seen within the idle timeout ($2, seconds), by the database clock. */
const ACTIVE_COLUMN = '(ps.ended_at IS NULL AND ps.last_seen_at > now() - make_interval(secs => $2)) AS active';

const SESSION_COLUMNS = `ps.id, ps.game_id AS "gameId", ps.game_version_id AS "gameVersionId", g.developer_id AS "developerId",
  ps.player_id AS "playerId", ps.player_ref AS "playerRef", ps.test_mode AS "testMode", ps.coins_per_credit AS "coinsPerCredit",
  g.max_score::float8 AS "maxScore", ps.started_at AS "startedAt", ps.last_seen_at AS "lastSeenAt", ps.ended_at AS "endedAt",
  ${ACTIVE_COLUMN}`;

/** The columns of a PlaySessionRecord, as SESSION_COLUMNS answers them. */
const SESSION_COLUMN_NAMES: (keyof PlaySessionRecord)[] = [
  'id', 'gameId', 'gameVersionId', 'developerId', 'playerId', 'playerRef', 'testMode', 'coinsPerCredit',
  'maxScore', 'startedAt', 'lastSeenAt', 'endedAt', 'active',
];

/** The latest insertion of a play session (null columns when it has none). */
export interface LatestInsertion {
  insertionId: string | null;
  /** Whether an admin voided it (CONTRACT §19.1). */
  insertionVoided: boolean | null;
}

/**
 * A play session (`byId`'s columns) with its latest insertion, for scoring's player score target
 * ($1 the id, null for a non-uuid; $2 the idle timeout).
 */
export const SESSION_WITH_LATEST_INSERTION = new SqlPart<PlaySessionRecord & LatestInsertion>(
  `SELECT ${SESSION_COLUMNS}, li.id AS "insertionId", li.voided AS "insertionVoided"
  FROM play_sessions ps JOIN games g ON g.id = ps.game_id
  LEFT JOIN LATERAL (
    SELECT i.id, EXISTS (SELECT 1 FROM insertion_voids v WHERE v.insertion_id = i.id) AS voided
      FROM insertions i WHERE i.play_session_id = ps.id ORDER BY i.created_at DESC, i.id DESC LIMIT 1
  ) li ON true
  WHERE ps.id = $1`,
  [...SESSION_COLUMN_NAMES, 'insertionId', 'insertionVoided'],
  2,
);

const INSERTION_COLUMNS = `i.id, i.play_session_id AS "playSessionId", i.game_id AS "gameId", g.developer_id AS "developerId",
       i.player_id AS "playerId", ps.player_ref AS "playerRef", i.coins, g.max_score::float8 AS "maxScore", i.created_at AS "createdAt",
       v.voided_at AS "voidedAt"`;
const INSERTION_COLUMN_NAMES: (keyof InsertionRecord)[] = ['id', 'playSessionId', 'gameId', 'developerId', 'playerId', 'playerRef', 'coins', 'maxScore', 'createdAt', 'voidedAt'];

/** An insertion as `insertion()` reads it, only of the developer `$2`'s games ($1 null for a non-uuid id): scoring's trusted score target. */
export const INSERTION_OF_DEVELOPER = new SqlPart<InsertionRecord>(
  `SELECT ${INSERTION_COLUMNS}
  FROM insertions i
  JOIN play_sessions ps ON ps.id = i.play_session_id
  JOIN games g ON g.id = i.game_id
  LEFT JOIN insertion_voids v ON v.insertion_id = i.id
 WHERE i.id = $1 AND g.developer_id = $2`,
  INSERTION_COLUMN_NAMES,
  2,
);

export const BY_ID_SQL = `SELECT ${SESSION_COLUMNS} FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1`;

/** `byId` as a part a use case sends with its first write ($1 the id, null for a non-uuid; $2 the idle timeout). */
export const ACTIVE_READ = new SqlPart<PlaySessionRecord>(BY_ID_SQL, SESSION_COLUMN_NAMES, 2);

const CORE_COLUMN_NAMES: (keyof PlaySessionCore)[] = ['id', 'gameId', 'developerId', 'playerId', 'testMode', 'coinsPerCredit', 'active'];

/**
 * Only the columns of a PlaySessionCore ($1 the id, null for a non-uuid; $2 the idle timeout):
 * insert-coin's read. Its row is decoded on every insert-coin, so it carries no timestamp (each a
 * date parse) and nothing the payment does not use (docs/performance.md, issue 29).
 */
export const ACTIVE_CORE_READ = new SqlPart<PlaySessionCore>(
  `SELECT ps.id, ps.game_id AS "gameId", g.developer_id AS "developerId", ps.player_id AS "playerId", ps.test_mode AS "testMode",
  ps.coins_per_credit AS "coinsPerCredit", ${ACTIVE_COLUMN}
  FROM play_sessions ps JOIN games g ON g.id = ps.game_id WHERE ps.id = $1`,
  CORE_COLUMN_NAMES,
  2,
);

