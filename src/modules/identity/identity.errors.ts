import { AppError, InvalidRequestError, UnauthenticatedError } from '../../errors/app-error';

export class EmailTakenError extends AppError {
  constructor() {
    super('EMAIL_TAKEN', 'An account with this e-mail address already exists.');
  }
}

/** Same message for an unknown e-mail and a wrong password: no account enumeration. */
export class InvalidCredentialsError extends UnauthenticatedError {
  constructor() {
    super('The e-mail address or password is wrong.');
  }
}

export class EmailNotVerifiedError extends AppError {
  constructor() {
    super('EMAIL_NOT_VERIFIED', 'Verify your e-mail address first: follow the link we sent you.');
  }
}

export class AccountNotLinkedError extends AppError {
  constructor() {
    super('ACCOUNT_NOT_LINKED', 'This account has no player profile yet: create one with POST /api/me/player.');
  }
}

/** A password-reset link that is unknown, used or expired (CONTRACT §20). */
export class InvalidResetTokenError extends AppError {
  constructor() {
    super('INVALID_TOKEN', 'The reset link is invalid, used or expired: ask for a new one.');
  }
}

export class InvalidVerificationTokenError extends InvalidRequestError {
  constructor() {
    super('The verification link is invalid or has expired.');
  }
}

/** A signed-in change that asks for the current password got the wrong one (CONTRACT §20); counted as a failed login. */
export class WrongPasswordError extends AppError {
  constructor() {
    super('WRONG_PASSWORD', 'The current password is wrong.');
  }
}

/** Sign-in of a banned account, told only after the password matched (CONTRACT §18). */
export class AccountBannedError extends AppError {
  constructor() {
    super('ACCOUNT_BANNED', 'This account is banned.');
  }
}

export class CannotBanYourselfError extends AppError {
  constructor() {
    super('CONFLICT', 'You cannot ban yourself.');
  }
}

/** An e-mail-change confirmation link that is unknown, used or expired (CONTRACT §20). */
export class InvalidEmailChangeTokenError extends AppError {
  constructor() {
    super('INVALID_TOKEN', 'The confirmation link is invalid, used or expired: ask for a new one in Settings.');
  }
}

/** An e-mail change to the address the account already has: taken, by this account (CONTRACT §20 409). */
export class EmailUnchangedError extends AppError {
  constructor() {
    super('EMAIL_TAKEN', 'That is already your e-mail address.');
  }
}

/** A two-factor code (TOTP or recovery code) that does not match, or was used already (CONTRACT §20). */
export class InvalidTwoFactorCodeError extends AppError {
  constructor() {
    super('INVALID_CODE', 'That code is wrong or was used already: enter the current code from your authenticator app, or an unused recovery code.');
  }
}

/** An admin whose two-factor authentication is off while ADMIN_REQUIRE_2FA is true (CONTRACT §20). */
export class TwoFactorRequiredError extends AppError {
  constructor() {
    super('TWO_FACTOR_REQUIRED', 'Administrators must turn on two-factor authentication first: see /me/settings.');
  }
}

/** Two-factor is already on (setup), or not in the state the request needs (enable without a setup, disable while off). */
export class TwoFactorConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
