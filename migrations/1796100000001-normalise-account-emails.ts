import { MigrationInterface, QueryRunner } from 'typeorm';
import { normalizeEmail } from '../src/modules/identity/email-address';

/**
 * Stored e-mail addresses in the one normalised form (normalizeEmail: NFC, lower-cased, NFC),
 * which sign-up, login and the limits now use. Earlier releases stored what was typed and looked
 * it up with PostgreSQL's lower(), which lower-cases non-ASCII letters differently (or, under the
 * C locale, not at all).
 *
 * Collisions: when two accounts normalise to one address (`İnci@x` and `i̇nci@x`), the oldest
 * account gets the normalised address and the others keep theirs unchanged. Logins look addresses
 * up in normalised form, so those accounts cannot sign in until an operator settles which mailbox
 * they belong to; each one is listed (id only) in the migration's output.
 */
export class NormaliseAccountEmails1796100000001 implements MigrationInterface {
  name = 'NormaliseAccountEmails1796100000001';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; email: string }[] = await q.query('SELECT id, email FROM accounts ORDER BY created_at, id');
    const claimed = new Map<string, string>();
    for (const { email } of rows) if (normalizeEmail(email) === email) claimed.set(email, email);
    const stranded: string[] = [];
    for (const { id, email } of rows) {
      const normalised = normalizeEmail(email);
      if (normalised === email) continue;
      if (claimed.has(normalised)) {
        stranded.push(id);
        continue;
      }
      // The unique index is on lower(email): another row may still hold a spelling PostgreSQL lower-cases alike.
      const [{ taken }] = await q.query('SELECT EXISTS (SELECT 1 FROM accounts WHERE lower(email) = lower($1) AND id <> $2) AS taken', [normalised, id]);
      if (taken) {
        stranded.push(id);
        continue;
      }
      await q.query('UPDATE accounts SET email = $2 WHERE id = $1', [id, normalised]);
      claimed.set(normalised, email);
    }
    if (stranded.length > 0) {
      process.stdout.write(
        `${JSON.stringify({ level: 'warn', msg: 'Accounts whose e-mail collides with an older account after normalisation were left as they were and cannot sign in', accountIds: stranded })}\n`,
      );
    }
  }

  async down(): Promise<void> {
    // What was typed before is gone; normalised addresses are valid addresses.
  }
}
