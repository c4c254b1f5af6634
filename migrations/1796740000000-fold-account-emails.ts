import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored e-mail addresses folded to compatibility form (normalizeEmail now uses NFKC, issue 26
 * item 14), so a fullwidth `ｐlayer@…` stored before is `player@…`, the form sign-up, login and
 * the limits look up.
 *
 * Collisions are settled as NormaliseAccountEmails1796100000001 settled them: when several
 * accounts fold to one address, the account that holds it in the unique index on lower(email)
 * (the folded spelling itself) keeps it, else the oldest gets it; the others keep theirs
 * unchanged and cannot sign in until an operator settles which mailbox they belong to. Addresses
 * holding invisible characters (now refused at sign-up) are left as they are. Both kinds are
 * listed (ids only) in the migration's output.
 */
/**
 * The e-mail rule and the invisible characters as they were when this migration was written
 * (identity's normalizeEmail and src/http/visible-text.ts then). Inlined, not imported: a
 * migration is history and must not change when the service's rules do.
 */
function normalizeEmail(raw: string): string {
  return raw.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

export class FoldAccountEmails1796740000000 implements MigrationInterface {
  name = 'FoldAccountEmails1796740000000';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; email: string }[] = await q.query('SELECT id, email FROM accounts WHERE email IS NOT NULL ORDER BY created_at, id');
    const groups = new Map<string, { id: string; email: string }[]>();
    for (const row of rows) {
      const folded = normalizeEmail(row.email);
      groups.set(folded, [...(groups.get(folded) ?? []), row]);
    }
    const stranded: string[] = [];
    for (const [folded, group] of groups) {
      if (group.length === 1 && group[0]!.email === folded) continue;
      const [holder] = (await q.query('SELECT id FROM accounts WHERE lower(email) = lower($1)', [folded])) as { id: string }[];
      const winner = holder ? group.find((row) => row.id === holder.id) : group[0];
      if (winner && winner.email !== folded) await q.query('UPDATE accounts SET email = $2 WHERE id = $1', [winner.id, folded]);
      stranded.push(...group.filter((row) => row !== winner).map((row) => row.id));
    }
    const invisible = rows.filter((row) => hasInvisibleCharacters(row.email)).map((row) => row.id);
    if (stranded.length > 0) {
      process.stdout.write(
        `${JSON.stringify({ level: 'warn', msg: 'Accounts whose e-mail collides with another account after folding (NFKC) were left as they were and cannot sign in', accountIds: stranded })}\n`,
      );
    }
    if (invisible.length > 0) {
      process.stdout.write(
        `${JSON.stringify({ level: 'warn', msg: 'Accounts whose e-mail holds invisible characters (refused at sign-up since) were left as they were', accountIds: invisible })}\n`,
      );
    }
  }

  async down(): Promise<void> {
    // The spellings typed before are gone; folded addresses are valid addresses.
  }
}
