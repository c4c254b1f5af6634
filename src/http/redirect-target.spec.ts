import { safeRedirectPath } from './redirect-target';

describe('safeRedirectPath: only paths on this origin, checked after normalisation (CONTRACT §17.1, issue 26 item 8)', () => {
  it.each([
    ['/play/coin-clicker', '/play/coin-clicker'],
    ['/games/x?period=week#top', '/games/x?period=week#top'],
    ['/', '/'],
    ['/developer/games/abc', '/developer/games/abc'],
    ['/x/../developer/keys', '/developer/keys'],
    ['/./me', '/me'],
    // Still a path here: an encoded slash is not a separator, browsers keep it encoded.
    ['/%2f/evil.example', '/%2f/evil.example'],
    ['/%5c/evil.example', '/%5c/evil.example'],
  ])('keeps %s as %s', (next, expected) => {
    expect(safeRedirectPath(next)).toBe(expected);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab trick', '/\t/evil.example'],
    ['a newline trick', '/\n/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'play/x'],
    ['an empty string', ''],
    ['nothing', undefined],
    ['an array', ['/a', '/b']],
    ['a very long path', '/' + 'a'.repeat(3000)],
    // Each of these normalises to `//evil.example` (a protocol-relative URL) or `/\evil.example`.
    ['a dot segment before //', '/.//evil.example'],
    ['a double-dot segment before //', '/..//evil.example'],
    ['an encoded dot segment', '/%2e//evil.example'],
    ['an encoded upper-case dot segment', '/%2E//evil.example'],
    ['an encoded double-dot segment', '/%2e%2e//evil.example'],
    ['a half-encoded double-dot segment', '/.%2e//evil.example'],
    ['a segment climbed out of', '/x/..//evil.example'],
    ['an encoded segment climbed out of', '/x/%2e%2e//evil.example'],
    ['deeper climbing', '/a/b/../../..//evil.example/x?y#z'],
    ['a dot segment before a backslash', '/./\\evil.example'],
    ['a backslash after a dot segment', '/.\\/evil.example'],
    ['a climb before a backslash', '/x/../\\evil.example/'],
  ])('sends %s to /me', (_name, next) => {
    expect(safeRedirectPath(next)).toBe('/me');
  });

  it('uses the fallback it is given', () => {
    expect(safeRedirectPath('//evil.example', '/')).toBe('/');
    expect(safeRedirectPath('/.//evil.example', '/')).toBe('/');
  });
});
