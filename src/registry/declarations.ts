import 'reflect-metadata';
import type { Config, RateLimitRule } from '../config';

/**
 * What a module declares beside its code, instead of adding lines to central tables: the error
 * codes it answers with, the audit actions it records, the rate limits it counts and the events it
 * publishes. The app composes every feature module's declarations once (compose.ts), refusing a
 * name declared twice, and the types below are derived from the same objects, so a code, action,
 * limit or event nobody declared does not compile.
 *
 * A module declares in its `<module>.declarations.ts`:
 *
 *   export const SCORING = declare({
 *     errors: { SCORE_NOT_FOUND: 404 },
 *     auditActions: { 'score.remove': 'score' },
 *     limits: { 'score-per-session': { rule: configured('RATE_LIMIT_SCORE_PER_SESSION', { limit: 30, windowMs: 60_000 }) } },
 *   });
 *   type Scoring = typeof SCORING;
 *   declare module '../../registry/declarations' {
 *     interface ModuleRegistry { scoring: Scoring }
 *   }
 *
 * and puts `@Declares(SCORING)` on its Nest module class. Adding a module touches that module and
 * the one line of FEATURES in app.module.ts.
 */
export interface ModuleDeclarations {
  /** Error codes of the flat error shape's `error`, each with its HTTP status. */
  readonly errors?: Readonly<Record<string, number>>;
  /** Audit actions (CONTRACT §18), each with the kind of thing it acts on. */
  readonly auditActions?: Readonly<Record<string, string>>;
  /** Rate limits, by throttler name (the named throttlers of `ThrottlerModule`). */
  readonly limits?: Readonly<Record<string, LimitDeclaration>>;
  /** Events the module publishes, each with its kind and (in the type) its payload. */
  readonly events?: Readonly<Record<string, EventDeclaration<unknown, EventKind>>>;
}

/** One rate limit: its rule read from the configuration, and what it counts per. */
export interface LimitDeclaration {
  readonly rule: LimitRule;
  /** Counted for everyone at once (a global allowance) rather than per client address. */
  readonly everyone?: boolean;
}

/** Where a limit's rule comes from: a `RATE_LIMIT_*` variable with its default, or a fixed rule. */
export interface LimitRule {
  /** The configuration variable that sets it ("LIMIT/SECONDS"); none for a rule the spec fixes. */
  readonly variable?: string;
  readonly default: RateLimitRule;
  /** The rule in force under this configuration. */
  resolve(config: Config): RateLimitRule;
}

/** A limit set by `variable` ("LIMIT/SECONDS", parsed by loadConfig), `fallback` when unset. */
export function configured(variable: `RATE_LIMIT_${string}`, fallback: RateLimitRule): LimitRule {
  return { variable, default: fallback, resolve: (config) => config.rateLimits[variable] ?? fallback };
}

/** A limit the specification fixes; `resolve` may still read a test-only override from the configuration. */
export function fixed(rule: RateLimitRule, resolve: (config: Config) => RateLimitRule = () => rule): LimitRule {
  return { default: rule, resolve };
}

/**
 * The kinds of event (docs/architecture.md, "Events"):
 * - `after-commit`: a fact others may react to once it is durable, in this process (drop a cache).
 * - `in-transaction`: work another module must do in the publisher's transaction (open a wallet).
 * - `every-instance`: a cache invalidation every instance hears on commit (LISTEN/NOTIFY).
 */
export type EventKind = 'after-commit' | 'in-transaction' | 'every-instance';

/** An event's kind; its payload type rides along in the type only. */
export interface EventDeclaration<Payload, Kind extends EventKind> {
  readonly kind: Kind;
  /** Never set: carries the payload's type. */
  readonly payload?: Payload;
}

export function afterCommit<Payload>(): EventDeclaration<Payload, 'after-commit'> {
  return { kind: 'after-commit' };
}

export function inTransaction<Payload>(): EventDeclaration<Payload, 'in-transaction'> {
  return { kind: 'in-transaction' };
}

export function everyInstance<Payload>(): EventDeclaration<Payload, 'every-instance'> {
  return { kind: 'every-instance' };
}

/** A module's declarations, frozen, with their literal types kept. */
export function declare<const D extends ModuleDeclarations>(declarations: D): D {
  return Object.freeze(declarations);
}

const DECLARATIONS_KEY = 'arcade:module-declarations';

/** Puts a module's declarations on its Nest module class, where the app's composition finds them. */
export function Declares(declarations: ModuleDeclarations): ClassDecorator {
  return (target) => Reflect.defineMetadata(DECLARATIONS_KEY, declarations, target);
}

/** The declarations on a module class, if it has any. */
export function declarationsOf(moduleClass: object): ModuleDeclarations | undefined {
  return Reflect.getMetadata(DECLARATIONS_KEY, moduleClass) as ModuleDeclarations | undefined;
}

/**
 * Every module's declarations by module name: each `<module>.declarations.ts` merges one member
 * into this interface. The types below are read off it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleRegistry {}

type Declared<K extends keyof ModuleDeclarations> = {
  [M in keyof ModuleRegistry]: ModuleRegistry[M] extends { readonly [P in K]: infer T } ? T : never;
}[keyof ModuleRegistry];
type KeysOf<T> = T extends unknown ? keyof T & string : never;
type ValuesOf<T> = T extends unknown ? T[keyof T] : never;

/** Error codes the modules declare (the kernel's own are in src/errors/error-status.ts). */
export type DeclaredErrorCode = KeysOf<Declared<'errors'>>;
/** Every audit action some module records. */
export type AuditAction = KeysOf<Declared<'auditActions'>>;
/** Every kind of thing an audit entry acts on. */
export type AuditTargetType = ValuesOf<Declared<'auditActions'>> & string;
/** Every named rate limit. */
export type ThrottlerName = KeysOf<Declared<'limits'>>;

type EventEntry = Declared<'events'> extends infer U ? (U extends object ? { [N in keyof U & string]: [N, U[N]] }[keyof U & string] : never) : never;

/** Name -> payload of every declared event of one kind. */
export type EventMapOf<Kind extends EventKind> = {
  [E in EventEntry as E[1] extends EventDeclaration<unknown, Kind> ? E[0] : never]: E[1] extends EventDeclaration<infer P, Kind> ? P : never;
};
