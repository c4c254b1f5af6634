import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** scrypt cost (N = 2^15, r = 8, p = 1: 32 MiB per hash), stored with each hash so it can be raised later. */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Memory-hard password hashes with node:crypto scrypt: `scrypt$logN$r$p$salt$hash` (base64url). */
@Injectable()
export class PasswordService {
  private readonly dummy = this.hash('not-a-real-password-only-burns-time');

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, LOG_N, R, P);
    return ['scrypt', LOG_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, logN, r, p, salt, expected] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !expected) return false;
    const key = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
    const want = Buffer.from(expected, 'base64url');
    return key.length === want.length && timingSafeEqual(key, want);
  }

  /** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
  async burn(password: string): Promise<void> {
    await this.verify(password, await this.dummy);
  }
}
