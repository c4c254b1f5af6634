import { around, aroundOptional, found, SqlPart, SqlWrap } from './sql-part';

interface Session {
  id: string;
  gameId: string;
}

const SESSION = new SqlPart<Session>('SELECT s.id, s.game_id AS "gameId" FROM s WHERE s.id = $1 AND s.t > $2', ['id', 'gameId'], 2);

describe('SqlPart composition', () => {
  it('joins the columns, puts the wrap\'s values after the read\'s and builds the text once', () => {
    const wrap = new SqlWrap<{ board: string[]; now: Date }>('SELECT t.*, now() AS now, b($+1) AS board FROM ({read}) AS t WHERE x = $+2', ['board', 'now'], 2);
    const part = around(wrap, SESSION);
    expect(part.columns).toEqual(['board', 'now', 'id', 'gameId']);
    expect(part.valueCount).toBe(4);
    expect(part.text).toBe('SELECT t.*, now() AS now, b($3) AS board FROM (SELECT s.id, s.game_id AS "gameId" FROM s WHERE s.id = $1 AND s.t > $2) AS t WHERE x = $4');
    expect(around(wrap, SESSION)).toBe(part);
    // The row type is the join of both sides: this line only compiles if it is.
    const row: typeof part.row = { id: 'a', gameId: 'g', board: [], now: new Date() };
    expect(row.gameId).toBe('g');
  });

  it('refuses a column that the read and its wrap both answer, when the text is first built', () => {
    const clashing = new SqlWrap<{ gameId: string }>('SELECT t.*, 1 AS "gameId" FROM ({read}) AS t', ['gameId'], 0);
    expect(() => around(clashing, SESSION)).toThrow('SQL parts clash: column "gameId" is answered by the read and by its wrap.');
    const byMarker = new SqlWrap<{ claimed: boolean }, { id: true }>('SELECT 1 AS claimed, r.* FROM one LEFT JOIN LATERAL (SELECT true AS id, x.* FROM ({read}) x) r ON true', ['claimed'], 0, ['id']);
    expect(() => aroundOptional(byMarker, SESSION)).toThrow('SQL parts clash: column "id"');
  });

  it('refuses a part that answers a column twice, and values of the wrong count', () => {
    expect(() => new SqlPart<Session>('SELECT 1', ['id', 'id'], 0)).toThrow('SQL part answers column "id" twice.');
    expect(() => SESSION.bind(['only-one'])).toThrow('SQL part takes 2 values, got 1.');
    expect(SESSION.bind(['a', 30])).toEqual({ part: SESSION, text: SESSION.text, values: ['a', 30] });
  });

  it('an optional read is found or all null, told apart by a column that is never null', () => {
    const wrap = new SqlWrap<{ live: boolean | null }, { found: true }>('SELECT l.live, r.* FROM one LEFT JOIN LATERAL (SELECT true AS found, x.* FROM ({read}) x) r ON true', ['live'], 0, ['found']);
    const part = aroundOptional(wrap, SESSION);
    expect(part.columns).toEqual(['live', 'found', 'id', 'gameId']);
    const missing: typeof part.row = { live: true, found: null, id: null, gameId: null };
    const there: typeof part.row = { live: true, found: true, id: 'a', gameId: 'g' };
    expect(missing && found(missing, 'found')).toBe(false);
    expect(there && found(there, 'found') ? there.gameId : undefined).toBe('g');
  });

  it('a wrap needs the place of its read', () => {
    expect(() => new SqlWrap<{ a: number }>('SELECT 1 AS a', ['a'], 0)).toThrow('A SQL wrap needs {read} in its template.');
  });
});
