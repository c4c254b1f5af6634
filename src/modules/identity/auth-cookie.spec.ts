import { authCookie, clearedAuthCookies, parseCookies, readAuthToken } from './auth-cookie';

const req = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });

describe('auth cookie', () => {
  it('parses a Cookie header; the first occurrence of a name wins', () => {
    expect([...parseCookies('a=1; b=2; a=3')]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });

  it('reads auth_session, else joins auth_session.0, .1, … in index order up to the first gap', () => {
    expect(readAuthToken(req('auth_session=whole; auth_session.0=x'))).toBe('whole');
    expect(readAuthToken(req('auth_session.1=def; other=1; auth_session.0=abc'))).toBe('abcdef');
    expect(readAuthToken(req('auth_session.0=abc; auth_session.2=ghi'))).toBe('abc');
    expect(readAuthToken(req('auth_session.1=def'))).toBeUndefined();
    expect(readAuthToken(req())).toBeUndefined();
  });

  it('sets HttpOnly, SameSite=Lax, Path=/, and Secure only when asked', () => {
    expect(authCookie('t', false)).toBe('auth_session=t; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax');
    expect(authCookie('t', true)).toMatch(/; Secure$/);
  });

  it('clears the cookie and every chunk the browser sent', () => {
    const cleared = clearedAuthCookies(req('auth_session.0=a; auth_session.1=b; x=1'), false);
    expect(cleared.map((c) => c.split('=')[0])).toEqual(['auth_session', 'auth_session.0', 'auth_session.1']);
    expect(cleared.every((c) => c.includes('Max-Age=0'))).toBe(true);
  });
});
