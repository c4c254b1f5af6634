import { decodeCursor, encodeCursor, pageOf } from './keyset-cursor';

describe('keyset cursor', () => {
  const id = '3b0d6c52-1c0e-4c57-9a0f-7f0f4b8d2e10';

  it('round-trips a timestamp (microseconds), a uuid and digits, as an opaque URL-safe string', () => {
    const cursor = encodeCursor(['2026-11-22T02:35:09.123456Z', id, '9007199254740991']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, ['timestamp', 'uuid', 'digits'] as const)).toEqual(['2026-11-22T02:35:09.123456Z', id, '9007199254740991']);
  });

  it.each([
    ['empty', ''],
    ['not base64 JSON', 'x'],
    ['another timestamp format', encodeCursor(['2026-11-22 02:35:09+00', id])],
    ['a day that does not exist', encodeCursor(['2026-02-30T00:00:00.000000Z', id])],
    ['year 0000', encodeCursor(['0000-01-01T00:00:00.000000Z', id])],
    ['before 1970', encodeCursor(['1969-12-31T23:59:59.999999Z', id])],
    ['not a uuid', encodeCursor(['2026-11-22T02:35:09.123456Z', 'nope'])],
    ['too few parts', encodeCursor(['2026-11-22T02:35:09.123456Z'])],
    ['too many parts', encodeCursor(['2026-11-22T02:35:09.123456Z', id, id])],
    ['a number instead of a string', Buffer.from(JSON.stringify([1, id])).toString('base64url')],
  ])('refuses %s with INVALID_REQUEST', (_what, cursor) => {
    expect(() => decodeCursor(cursor, ['timestamp', 'uuid'] as const)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it.each(['-1', '01', '1.5', '9223372036854775808', ''])('refuses digits %p', (digits) => {
    expect(() => decodeCursor(encodeCursor([digits]), ['digits'] as const)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('pages: the cursor of the last row answered when one more row was read, null at the end', () => {
    const rows = [{ n: '3' }, { n: '2' }, { n: '1' }];
    const more = pageOf(rows, 2, (row) => [row.n]);
    expect(more.rows).toEqual([{ n: '3' }, { n: '2' }]);
    expect(decodeCursor(more.nextCursor!, ['digits'] as const)).toEqual(['2']);
    expect(pageOf(rows, 3, (row) => [row.n])).toEqual({ rows, nextCursor: null });
  });
});
