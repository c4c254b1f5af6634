/**
 * Pure rules of the public board (CONTRACT §9, §16.7, §16.8): ordering, rank and qualification
 * against the all-time top ten, the ISO week window, and who still owes initials.
 */

/** Entries shown on a board; the spec's leaderboard size. */
export const BOARD_SIZE = 10;

/** The largest score the API accepts: 2^53 - 1, so a JSON number carries it exactly. */
export const MAX_SCORE = 9007199254740991;

export interface BoardEntry {
  id: string;
  /** Decimal digits, as PostgreSQL returns a bigint. */
  score: string;
  achievedAt: Date;
}

/** Board order: higher score first, then the earlier achievedAt, then id (a total order). */
export function compareEntries(a: BoardEntry, b: BoardEntry): number {
  const sa = BigInt(a.score);
  const sb = BigInt(b.score);
  if (sa !== sb) return sa > sb ? -1 : 1;
  const ta = a.achievedAt.getTime();
  const tb = b.achievedAt.getTime();
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface Placement {
  qualifies: boolean;
  /** 1-10 when it qualifies, else null. */
  rank: number | null;
}

/**
 * Where `candidate` would stand on the all-time board `board` (the current top entries, the
 * candidate itself excluded). A tie with the tenth does not qualify: the earlier score keeps
 * its place and the candidate, achieved later, would be eleventh.
 */
export function placeOnBoard(board: readonly BoardEntry[], candidate: BoardEntry): Placement {
  const ahead = board.filter((entry) => entry.id !== candidate.id && compareEntries(entry, candidate) < 0).length;
  const rank = ahead + 1;
  return rank <= BOARD_SIZE ? { qualifies: true, rank } : { qualifies: false, rank: null };
}

/** Monday 00:00 UTC of the ISO week holding `at`, as `YYYY-MM-DD` (the scores.week_start date). */
export function weekStartOf(at: Date): string {
  const day = at.getUTCDay(); // 0 = Sunday
  const daysSinceMonday = (day + 6) % 7;
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - daysSinceMonday));
  return monday.toISOString().slice(0, 10);
}

export interface InitialsOutcome {
  initials: string | null;
  needsInitials: boolean;
}

/**
 * A saved score takes the player's saved initials at once, qualifying or not (§16.8); without
 * them the player is asked only for a saved score that qualifies. Unsaved (test-mode) scores
 * carry none and ask for none.
 */
export function initialsOutcome(saved: boolean, qualifies: boolean, preferredInitials: string | null): InitialsOutcome {
  if (!saved) return { initials: null, needsInitials: false };
  if (preferredInitials !== null) return { initials: preferredInitials, needsInitials: false };
  return { initials: null, needsInitials: qualifies };
}
