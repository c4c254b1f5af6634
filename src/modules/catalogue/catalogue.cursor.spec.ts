import { decodeCursor, encodeCursor } from './catalogue.service';

describe('catalogue cursor', () => {
  const id = '3b0d6c52-1c0e-4c57-9a0f-7f0f4b8d2e10';

  it('round-trips the publication time (microseconds) and id, as an opaque URL-safe string', () => {
    const cursor = encodeCursor('2026-11-22T02:35:09.123456Z', id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ publishedAt: '2026-11-22T02:35:09.123456Z', id });
  });

  it.each(['', 'x', encodeCursor('2026-11-22 02:35:09+00', id), encodeCursor('2026-02-30T00:00:00.000000Z', id), encodeCursor('0000-01-01T00:00:00.000000Z', id), encodeCursor('2026-11-22T02:35:09.123456Z', 'nope')])(
    'refuses %p with INVALID_REQUEST',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    },
  );
});
