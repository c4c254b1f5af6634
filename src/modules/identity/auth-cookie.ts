import type { Request } from 'express';

/** Name of the login-session cookie (CONTRACT §2; spec §5). */
export const AUTH_COOKIE = 'auth_session';

/** Login sessions last 30 days from sign-in; the cookie lives exactly as long. */
export const LOGIN_SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** Parses a Cookie header into name → value; the first occurrence of a name wins (RFC 6265 §5.4). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name && !cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(value));
      } catch {
        cookies.set(name, value);
      }
    }
  }
  return cookies;
}

/**
 * The login-session token from a request: `auth_session`, or else the chunks `auth_session.0`,
 * `auth_session.1`, … joined in index order (a gap ends the sequence).
 */
export function readAuthToken(request: Pick<Request, 'headers'>): string | undefined {
  const header = request.headers.cookie;
  const cookies = parseCookies(Array.isArray(header) ? header.join('; ') : header);
  const whole = cookies.get(AUTH_COOKIE);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${AUTH_COOKIE}.${i}`); i++) chunks.push(cookies.get(`${AUTH_COOKIE}.${i}`)!);
  const joined = chunks.join('');
  return joined === '' ? undefined : joined;
}

/** `Set-Cookie` value that signs the browser in: HttpOnly, SameSite=Lax, Path=/, Secure on https. */
export function authCookie(token: string, secure: boolean): string {
  return [`${AUTH_COOKIE}=${token}`, 'Path=/', `Max-Age=${LOGIN_SESSION_TTL_SECONDS}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** `Set-Cookie` values that sign the browser out, chunks included. */
export function clearedAuthCookies(request: Pick<Request, 'headers'>, secure: boolean): string[] {
  const header = request.headers.cookie;
  const names = [...parseCookies(Array.isArray(header) ? header.join('; ') : header).keys()].filter((name) => /^auth_session\.\d+$/.test(name));
  return [AUTH_COOKIE, ...names].map((name) =>
    [`${name}=`, 'Path=/', 'Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; '),
  );
}
