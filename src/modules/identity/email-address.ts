/**
 * The one e-mail rule, used for storage, lookup and every limit key (identity only calls it in
 * AccountsService and the admin bootstrap): trimmed, Unicode NFKC, then lower-cased with Unicode's
 * default case mapping (`String.prototype.toLowerCase`, the same on every machine and locale), then
 * NFKC again. NFKC folds compatibility forms, so a fullwidth `ｐlayer@…` is `player@…` (issue 26
 * item 14; invisible characters are refused at the door, see identity.dto.ts). The whole address
 * is lower-cased, local part included: mail providers treat local parts case-insensitively in practice, and one account per mailbox matters more than the rare
 * provider that does not. So `İnci@Example.com` (U+0130) is stored and looked up as `i̇nci@example.com`
 * (i + U+0307); PostgreSQL's `lower()` never decides (its result depends on the database's locale).
 */
export function normalizeEmail(raw: string): string {
  return raw.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}
