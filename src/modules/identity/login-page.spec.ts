import { loginPage, safeNext } from './login-page';

describe('safeNext: only same-origin paths', () => {
  it.each([
    ['/play/coin-clicker', '/play/coin-clicker'],
    ['/games/x?period=week#top', '/games/x?period=week#top'],
    ['/', '/'],
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
    ['nothing', undefined],
    ['an array', ['/a', '/b']],
    ['a very long path', '/' + 'a'.repeat(3000)],
  ])('sends %s home', (_name, next) => {
    expect(safeNext(next)).toBe('/');
  });
});

describe('loginPage', () => {
  it('escapes the next path and puts the nonce on its script', () => {
    const html = loginPage({ next: '/x?a="><script>', nonce: 'abc123' });
    expect(html).toContain('data-next="/x?a=&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('<script nonce="abc123">');
    expect(html).not.toContain('"><script>');
  });
});
