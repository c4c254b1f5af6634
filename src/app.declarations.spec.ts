import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appDeclarations } from './app.module';
import { loadConfig } from './config';
import { KERNEL } from './errors/error-status';
import { composeDeclarations, DeclarationClash, limitRules, unknownLimitVariables } from './registry/compose';
import { declare, ModuleDeclarations } from './registry/declarations';

const MODULES = join(__dirname, 'modules');
const KINDS = ['errors', 'auditActions', 'limits', 'events'] as const;

/** Every `<module>.declarations.ts` in src/modules, with what it exports. */
function declarationFiles(): { file: string; declarations: ModuleDeclarations }[] {
  return readdirSync(MODULES).flatMap((dir) =>
    readdirSync(join(MODULES, dir))
      .filter((name) => name.endsWith('.declarations.ts'))
      .map((name) => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const exported = Object.values(require(join(MODULES, dir, name)) as Record<string, ModuleDeclarations>);
        expect(exported).toHaveLength(1);
        return { file: `${dir}/${name}`, declarations: exported[0] };
      }),
  );
}

describe('the app composes every module\'s declarations', () => {
  const composed = appDeclarations();

  it('is complete: every declaration file of every module is in the app, entry for entry', () => {
    const files = declarationFiles();
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['scoring/scoring.declarations.ts', 'identity/identity.declarations.ts', 'wallet/wallet.declarations.ts']));
    const expected = { errors: new Map<string, unknown>(Object.entries(KERNEL.errors)), auditActions: new Map(), limits: new Map(), events: new Map() };
    for (const { declarations } of files) {
      for (const kind of KINDS) for (const [name, value] of Object.entries(declarations[kind] ?? {})) expected[kind].set(name, kind === 'events' ? (value as { kind: string }).kind : value);
    }
    // A module whose declarations are not composed (its module class missing from FEATURES, or
    // without @Declares) would leave its codes answering 500 and its limits unknown.
    expect(composed.errors).toEqual(expected.errors);
    expect(composed.auditActions).toEqual(expected.auditActions);
    expect(composed.limits).toEqual(expected.limits);
    expect(composed.events).toEqual(expected.events);
  });

  it('is unique: no name is declared by two modules, and a clash names both', () => {
    const seen = new Map<string, string>();
    for (const { file, declarations } of [{ file: 'kernel', declarations: KERNEL as ModuleDeclarations }, ...declarationFiles()]) {
      for (const kind of KINDS) {
        for (const name of Object.keys(declarations[kind] ?? {})) {
          expect([`${kind} ${name}`, seen.get(`${kind}:${name}`)]).toEqual([`${kind} ${name}`, undefined]);
          seen.set(`${kind}:${name}`, file);
        }
      }
    }
    const a = declare({ errors: { SAME_CODE: 409 } });
    const b = declare({ errors: { SAME_CODE: 409 } });
    expect(() => composeDeclarations([{ owner: 'AModule', declarations: a }, { owner: 'BModule', declarations: b }])).toThrow(DeclarationClash);
    expect(() => composeDeclarations([{ owner: 'AModule', declarations: a }, { owner: 'BModule', declarations: b }])).toThrow(
      "errors 'SAME_CODE' is declared by both AModule and BModule",
    );
  });

  it('has every code the contract names, each with its status', () => {
    expect(Object.fromEntries(composed.errors)).toEqual({
      INVALID_REQUEST: 400, INVALID_SIGNATURE: 400, INVALID_TOKEN: 400, INVALID_CODE: 400,
      UNAUTHENTICATED: 401,
      INSUFFICIENT_COINS: 402,
      FORBIDDEN: 403, EMAIL_NOT_VERIFIED: 403, ACCOUNT_NOT_LINKED: 403, LIVE_KEY_REQUIRED: 403, WALLET_FROZEN: 403, ACCOUNT_BANNED: 403,
      WRONG_PASSWORD: 403, TWO_FACTOR_REQUIRED: 403,
      NOT_FOUND: 404, GAME_UNAVAILABLE: 404, SESSION_NOT_FOUND: 404, ACHIEVEMENT_NOT_FOUND: 404, SCORE_NOT_FOUND: 404,
      CONFLICT: 409, EMAIL_TAKEN: 409, SLUG_TAKEN: 409, VERSION_NOT_APPROVED: 409, GAME_SUSPENDED: 409, ACHIEVEMENT_LIMIT_REACHED: 409,
      ACHIEVEMENT_KEY_TAKEN: 409, ACHIEVEMENT_KEY_LOCKED: 409, IDEMPOTENCY_KEY_CONFLICT: 409, COIN_REQUIRED: 409, INSERTION_ALREADY_SCORED: 409,
      INSERTION_VOIDED: 409, WEBHOOK_LIMIT_REACHED: 409,
      SESSION_EXPIRED: 410,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      SCORE_OUT_OF_RANGE: 422,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
  });

  it('gives every limit its default, its variable, and what docs/rate-limits.md says of it', () => {
    const rules = Object.fromEntries(limitRules(composed, loadConfig({})));
    const minutes = (limit: number, m: number) => ({ limit, windowMs: m * 60_000 });
    expect(rules).toEqual({
      'insert-coin-burst': { limit: 1, windowMs: 500 },
      'insert-coin-minute': minutes(60, 1),
      'score-per-session': minutes(30, 1),
      'score-per-player': minutes(120, 1),
      'initials-per-player': minutes(30, 1),
      'developer-per-key': minutes(600, 1),
      'login-per-email': minutes(10, 15),
      'login-per-address': minutes(50, 15),
      'signup-per-address': minutes(30, 60),
      'signup-global': minutes(300, 1),
      'mail-per-account': minutes(5, 60),
      'mail-per-address': minutes(30, 60),
      'mail-global': minutes(1000, 60),
      'reset-per-email': minutes(5, 60),
      'reset-per-address': minutes(20, 60),
      'purchases-per-player': minutes(20, 60),
      'export-per-account': minutes(5, 60),
    });
    const docs = readFileSync(join(__dirname, '..', 'docs', 'rate-limits.md'), 'utf8');
    for (const [name, limit] of composed.limits) {
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect([name, row === undefined ? 'no row in docs/rate-limits.md' : 'documented']).toEqual([name, 'documented']);
      expect([name, row!.includes(limit.rule.variable ? `\`${limit.rule.variable}\`` : 'fixed')]).toEqual([name, true]);
    }
  });

  it('reads a limit from its variable, shortens the insert-coin burst only in tests, and names variables no module declares', () => {
    const config = loadConfig({ NODE_ENV: 'test', INSERT_COIN_BURST_MS: '5', RATE_LIMIT_SCORE_PER_SESSION: '3/10', RATE_LIMIT_SCORE_PER_SESION: '1/1' });
    const rules = limitRules(composed, config);
    expect(rules.get('score-per-session')).toEqual({ limit: 3, windowMs: 10_000 });
    expect(rules.get('insert-coin-burst')).toEqual({ limit: 1, windowMs: 5 });
    expect(rules.get('insert-coin-minute')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(unknownLimitVariables(composed, config)).toEqual(['RATE_LIMIT_SCORE_PER_SESION']);
  });

  it('knows each event\'s kind, and the audit actions with what they act on', () => {
    expect(Object.fromEntries(composed.events)).toEqual({
      'game.status-changed': 'after-commit',
      'api-key': 'every-instance',
      'player.linked': 'in-transaction',
      account: 'every-instance',
    });
    expect(composed.auditActions.get('insertion.void')).toBe('insertion');
    expect(composed.auditActions.get('user.erase')).toBe('user');
    expect(composed.auditActions.get('payout.run')).toBe('payout_run');
    expect(composed.auditActions.get('payout.fail')).toBe('payout');
    expect(composed.auditActions.size).toBe(21);
  });
});
