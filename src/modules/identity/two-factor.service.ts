import { createHash, randomInt } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { generateSecret, generateURI, verify } from 'otplib';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AccountContext } from '../../http/account-auth';
import { MailService, twoFactorOffMail, twoFactorOnMail } from '../mail';
import { AccountSettingsService } from './account-settings.service';
import { InvalidTwoFactorCodeError, TwoFactorConflictError } from './identity.errors';
import { TwoFactorRepository } from './two-factor.repository';

/** The issuer an authenticator app shows beside the account (CONTRACT §20). */
export const TOTP_ISSUER = 'Arcade Coin Service';
/** RFC 6238 steps are 30 seconds; one step either side is accepted (CONTRACT §20). */
const STEP_SECONDS = 30;
const RECOVERY_CODES = 10;
/** Recovery codes: 10 characters without look-alikes (no 0/o, 1/l/i), shown as two groups of five. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const TOTP_PATTERN = /^\d{6}$/;
/** A recovery code as typed: two groups of five letters or digits, with or without the dash (any case). */
export const RECOVERY_CODE_PATTERN = /^[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5}$/;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

function recoveryCodeHash(code: string): Buffer {
  return createHash('sha256').update(code.toLowerCase().replace(/[- ]/g, '')).digest();
}

/** The matched TOTP step of `token` for `secret` after `afterStep`, or undefined. `token` is 6 digits. */
async function matchingStep(secret: string, token: string, afterStep: number | undefined): Promise<number | undefined> {
  const result = await verify({ secret, token, epochTolerance: STEP_SECONDS, ...(afterStep === undefined ? {} : { afterTimeStep: afterStep }) });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/**
 * Two-factor authentication with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) and single-use
 * recovery codes (CONTRACT §20). The secret leaves the database only in the answer to setup and is
 * never logged; recovery codes are stored as SHA-256 and shown once. Every code is used in one
 * conditional statement (TwoFactorRepository), so a code never counts twice, even in a race.
 */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger('TwoFactor');

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly settings: TwoFactorRepository,
    private readonly accountSettings: AccountSettingsService,
    private readonly mail: MailService,
  ) {}

  isOn(accountId: string): Promise<boolean> {
    return this.settings.isEnabled(accountId);
  }

  /** A new pending secret, not in force until enabled; replaces an unconfirmed one. 409 when two-factor is on. */
  async setUp(auth: AccountContext): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateSecret();
    if (!(await this.settings.setPending(auth.accountId, secret))) throw new TwoFactorConflictError('Two-factor authentication is on already.');
    return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: auth.email, secret }) };
  }

  /** Turns two-factor on with a code of the pending secret; returns the recovery codes, shown this once. */
  async enable(auth: AccountContext, code: string): Promise<string[]> {
    const row = await this.settings.find(auth.accountId);
    if (!row || row.enabled || !row.pending_secret) throw new TwoFactorConflictError('Set up two-factor authentication first.');
    const step = await matchingStep(row.pending_secret, code, row.last_used_step === null ? undefined : Number(row.last_used_step));
    if (step === undefined) throw new InvalidTwoFactorCodeError();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.uow.run(async () => {
      // The pending secret replaced or enabled meanwhile: this code no longer belongs to it.
      if (!(await this.settings.enable(auth.accountId, row.pending_secret!, step))) throw new InvalidTwoFactorCodeError();
      await this.settings.replaceRecoveryCodes(auth.accountId, codes.map(recoveryCodeHash));
    });
    this.notify(auth.email, true);
    return codes;
  }

  /** Turns two-factor off: the current password first (403, counted as a failed login), then a code (400), then the state (409). */
  async disable(auth: AccountContext, currentPassword: string, code: string): Promise<void> {
    await this.accountSettings.proveCurrentPassword(auth, currentPassword);
    if (!(await this.settings.isEnabled(auth.accountId))) throw new TwoFactorConflictError('Two-factor authentication is off.');
    await this.uow.run(async () => {
      if (!(await this.useCode(auth.accountId, code))) throw new InvalidTwoFactorCodeError();
      if (!(await this.settings.disable(auth.accountId))) throw new TwoFactorConflictError('Two-factor authentication is off.');
    });
    this.notify(auth.email, false);
  }

  /**
   * Uses a code of an account with two-factor on: a TOTP of a step above the last used one (the
   * step claimed), or an unused recovery code (used up). False for anything else.
   */
  async useCode(accountId: string, code: string): Promise<boolean> {
    const trimmed = code.trim();
    if (TOTP_PATTERN.test(trimmed)) {
      const row = await this.settings.find(accountId);
      if (!row?.enabled || !row.secret) return false;
      const step = await matchingStep(row.secret, trimmed, row.last_used_step === null ? undefined : Number(row.last_used_step));
      return step !== undefined && (await this.settings.claimStep(accountId, row.secret, step));
    }
    if (RECOVERY_CODE_PATTERN.test(trimmed)) return this.settings.useRecoveryCode(accountId, recoveryCodeHash(trimmed));
    return false;
  }

  /** The notice mail, after the answer: a slow mail server must not hold up the change. */
  private notify(email: string, on: boolean): void {
    setImmediate(() => {
      this.mail.send({ to: email, ...(on ? twoFactorOnMail : twoFactorOffMail)(`${this.config.publicOrigin}/me/settings`) }).catch((error: unknown) => {
        this.logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'Could not send the two-factor notice mail');
      });
    });
  }
}
