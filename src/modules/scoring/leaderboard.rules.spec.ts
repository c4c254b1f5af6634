import { BoardEntry, compareEntries, initialsOutcome, placeOnBoard, weekStartOf } from './leaderboard.rules';

const at = (iso: string) => new Date(iso);
const entry = (id: string, score: string | number, iso = '2026-01-01T00:00:00Z'): BoardEntry => ({ id, score: String(score), achievedAt: at(iso) });

describe('board ordering', () => {
  it('orders by score descending, then earlier achievedAt, then id', () => {
    const entries = [
      entry('c', 5, '2026-01-02T00:00:00Z'),
      entry('a', 9),
      entry('b', 5, '2026-01-01T00:00:00Z'),
      entry('e', 5, '2026-01-01T00:00:00Z'),
    ];
    expect(entries.sort(compareEntries).map((e) => e.id)).toEqual(['a', 'b', 'e', 'c']);
  });

  it('compares scores beyond 2^53 exactly (as digit strings)', () => {
    expect(compareEntries(entry('x', '9007199254740991'), entry('y', '9007199254740990'))).toBeLessThan(0);
    expect(compareEntries(entry('x', '9007199254740990'), entry('y', '9007199254740991'))).toBeGreaterThan(0);
  });
});

describe('placeOnBoard', () => {
  const ten = Array.from({ length: 10 }, (_, i) => entry(`s${i}`, 100 - i * 10, `2026-01-01T00:00:0${i}Z`)); // 100..10

  it('ranks the first score of an empty board first', () => {
    expect(placeOnBoard([], entry('n', 0, '2026-02-01T00:00:00Z'))).toEqual({ qualifies: true, rank: 1 });
  });

  it('puts a later tie behind the earlier score', () => {
    expect(placeOnBoard(ten, entry('n', 100, '2026-02-01T00:00:00Z'))).toEqual({ qualifies: true, rank: 2 });
  });

  it('does not qualify a tie with the tenth', () => {
    expect(placeOnBoard(ten, entry('n', 10, '2026-02-01T00:00:00Z'))).toEqual({ qualifies: false, rank: null });
  });

  it('qualifies one point above the tenth, at rank 10', () => {
    expect(placeOnBoard(ten, entry('n', 11, '2026-02-01T00:00:00Z'))).toEqual({ qualifies: true, rank: 10 });
  });

  it('ignores the candidate itself when it is already on the board', () => {
    const board = [entry('n', 50, '2026-02-01T00:00:00Z'), entry('o', 40)];
    expect(placeOnBoard(board, board[0])).toEqual({ qualifies: true, rank: 1 });
  });

  it('ranks a new top score first on a full board', () => {
    expect(placeOnBoard(ten, entry('n', '9007199254740991', '2026-02-01T00:00:00Z'))).toEqual({ qualifies: true, rank: 1 });
  });
});

describe('weekStartOf (ISO week, Monday 00:00 UTC)', () => {
  it.each([
    ['2026-11-23T00:00:00.000Z', '2026-11-23'], // a Monday at midnight
    ['2026-11-22T23:59:59.999Z', '2026-11-16'], // the Sunday before
    ['2026-11-25T12:00:00.000Z', '2026-11-23'], // Wednesday
    ['2026-03-01T10:00:00.000Z', '2026-02-23'], // across a month boundary
    ['2027-01-01T00:00:00.000Z', '2026-12-28'], // across a year boundary
  ])('%s belongs to the week of %s', (iso, monday) => {
    expect(weekStartOf(at(iso))).toBe(monday);
  });
});

describe('initialsOutcome', () => {
  it('asks for initials only for a saved, qualifying score without saved initials', () => {
    expect(initialsOutcome(true, true, null)).toEqual({ initials: null, needsInitials: true });
    expect(initialsOutcome(true, false, null)).toEqual({ initials: null, needsInitials: false });
  });

  it('gives saved initials to every saved score, qualifying or not', () => {
    expect(initialsOutcome(true, true, 'ABC')).toEqual({ initials: 'ABC', needsInitials: false });
    expect(initialsOutcome(true, false, 'ABC')).toEqual({ initials: 'ABC', needsInitials: false });
  });

  it('gives an unsaved (test-mode) score neither', () => {
    expect(initialsOutcome(false, true, null)).toEqual({ initials: null, needsInitials: false });
    expect(initialsOutcome(false, true, 'ABC')).toEqual({ initials: null, needsInitials: false });
  });
});
