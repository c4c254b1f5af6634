import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored e-mail addresses in the one normalised form (normalizeEmail: NFC, lower-cased, NFC),
 * which sign-up, login and the limits now use. Earlier releases stored what was typed and looked
 * it up with PostgreSQL's lower(), which lower-cases non-ASCII letters differently (or, under the
 * C locale, not at all).
 *
 * Collisions: when several accounts normalise to one address (`Amélie@x` typed composed and
 * decomposed, `İnci@x` and `i̇nci@x`), the account that holds it in the unique index on
 * lower(email) (the normalised spelling, or one PostgreSQL's lower() folds onto it) gets it, else
 * the oldest; the others keep theirs unchanged. Logins look addresses up in
 * normalised form, so those accounts cannot sign in until an operator settles which mailbox they
 * belong to; each one is listed (id only) in the migration's output.
 */
/**
 * The e-mail rule as it was when this migration was written (identity's normalizeEmail then:
 * trimmed, NFC, lower-cased, NFC). Inlined, not imported: a migration is history and must not
 * change when the module's rule does (it became NFKC later; FoldAccountEmails1796740000000 folds
 * the stored addresses to that).
 */
function normalizeEmail(raw: string): string {
  return raw.trim().normalize('NFC').toLowerCase().normalize('NFC');
}

export class NormaliseAccountEmails1796100000001 implements MigrationInterface {
  name = 'NormaliseAccountEmails1796100000001';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; email: string }[] = await q.query('SELECT id, email FROM accounts ORDER BY created_at, id');
    const groups = new Map<string, { id: string; email: string }[]>();
    for (const row of rows) {
      const normalised = normalizeEmail(row.email);
      groups.set(normalised, [...(groups.get(normalised) ?? []), row]);
    }
    const stranded: string[] = [];
    for (const [normalised, group] of groups) {
      if (group.length === 1 && group[0]!.email === normalised) continue;
      // Who holds the address in the unique index on lower(email) (the same spelling, or one lower() folds onto it).
      const [holder] = (await q.query('SELECT id FROM accounts WHERE lower(email) = lower($1)', [normalised])) as { id: string }[];
      const winner = holder ? group.find((row) => row.id === holder.id) : group[0];
      if (winner && winner.email !== normalised) await q.query('UPDATE accounts SET email = $2 WHERE id = $1', [winner.id, normalised]);
      stranded.push(...group.filter((row) => row !== winner).map((row) => row.id));
    }
    if (stranded.length > 0) {
      process.stdout.write(
        `${JSON.stringify({ level: 'warn', msg: 'Accounts whose e-mail collides with another account after normalisation were left as they were and cannot sign in', accountIds: stranded })}\n`,
      );
    }
  }

  async down(): Promise<void> {
    // What was typed before is gone; normalised addresses are valid addresses.
  }
}
