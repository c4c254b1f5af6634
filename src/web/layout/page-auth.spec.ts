import { safeNext } from './page-auth';

describe('safeNext: only paths on this origin (CONTRACT §17.1)', () => {
  it.each([
    ['/play/coin-clicker', '/play/coin-clicker'],
    ['/games/x?period=week#top', '/games/x?period=week#top'],
    ['/', '/'],
    ['/developer/games/abc', '/developer/games/abc'],
  ])('keeps %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab trick', '/\t/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'play/x'],
    ['an empty string', ''],
    ['nothing', undefined],
    ['an array', ['/a', '/b']],
    ['a very long path', '/' + 'a'.repeat(3000)],
  ])('sends %s to /me', (_name, next) => {
    expect(safeNext(next)).toBe('/me');
  });

  it('uses the fallback it is given', () => {
    expect(safeNext('//evil.example', '/')).toBe('/');
  });
});
