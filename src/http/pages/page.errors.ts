/** What page code throws instead of answering; the page filter turns them into a redirect or the 404 page. */

/** Thrown by page code: the visitor must sign in first (answered with a redirect to the sign-in page). */
export class SignInRequired extends Error {
  constructor() {
    super('Sign in first.');
  }
}

/** Thrown by page code: answered with the HTML 404 page (unknown or foreign resource, missing role). */
export class PageNotFound extends Error {
  constructor() {
    super('Not found.');
  }
}

/** The sign-in page, coming back to `path` afterwards. */
export function signInPath(path: string): string {
  return `/auth/login?next=${encodeURIComponent(path)}`;
}


/** Thrown by the admin page's guard: an admin without two-factor while ADMIN_REQUIRE_2FA is true (CONTRACT §20); answered 403 with a notice. */
export class PageTwoFactorRequired extends Error {
  constructor() {
    super('Turn on two-factor authentication first.');
  }
}
