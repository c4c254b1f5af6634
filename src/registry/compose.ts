import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import type { Config, RateLimitRule } from '../config';
import { declarationsOf, EventKind, LimitDeclaration, ModuleDeclarations } from './declarations';

/** The app's declarations, composed from every feature module: one table per kind, each name once. */
export interface ComposedDeclarations {
  /** Error code -> HTTP status. */
  readonly errors: ReadonlyMap<string, number>;
  /** Audit action -> the kind of thing it acts on. */
  readonly auditActions: ReadonlyMap<string, string>;
  /** Throttler name -> its limit. */
  readonly limits: ReadonlyMap<string, LimitDeclaration>;
  /** Event name -> its kind. */
  readonly events: ReadonlyMap<string, EventKind>;
  /** Which module declared each name, by kind ("errors", "limits"...): for messages and docs. */
  readonly owners: ReadonlyMap<string, string>;
}

/** A name declared by two modules (or twice by one): the app refuses to start. */
export class DeclarationClash extends Error {}

const KINDS = ['errors', 'auditActions', 'limits', 'events'] as const;

/** One module's declarations with its name (its Nest module class's, or 'kernel'). */
export interface DeclaringPart {
  owner: string;
  declarations: ModuleDeclarations;
}

/** The declarations found on these Nest modules (classes or dynamic modules), in order. */
export function declaringParts(modules: readonly (Type | DynamicModule)[]): DeclaringPart[] {
  const parts: DeclaringPart[] = [];
  for (const entry of modules) {
    const moduleClass = 'module' in entry ? entry.module : entry;
    const declarations = declarationsOf(moduleClass);
    if (declarations) parts.push({ owner: moduleClass.name, declarations });
  }
  return parts;
}

/** Composes the parts' tables; throws DeclarationClash naming both owners of a name declared twice. */
export function composeDeclarations(parts: readonly DeclaringPart[]): ComposedDeclarations {
  const tables = { errors: new Map(), auditActions: new Map(), limits: new Map(), events: new Map() } as {
    errors: Map<string, number>;
    auditActions: Map<string, string>;
    limits: Map<string, LimitDeclaration>;
    events: Map<string, EventKind>;
  };
  const owners = new Map<string, string>();
  for (const { owner, declarations } of parts) {
    for (const kind of KINDS) {
      for (const [name, value] of Object.entries(declarations[kind] ?? {})) {
        const key = `${kind}:${name}`;
        const earlier = owners.get(key);
        if (earlier !== undefined) throw new DeclarationClash(`${kind} '${name}' is declared by both ${earlier} and ${owner}: each name has one owner.`);
        owners.set(key, owner);
        const table = tables[kind] as Map<string, unknown>;
        table.set(name, kind === 'events' ? (value as { kind: EventKind }).kind : value);
      }
    }
  }
  return Object.freeze({ ...tables, owners });
}

/** Each named limit's rule under this configuration. */
export function limitRules(declarations: ComposedDeclarations, config: Config): Map<string, RateLimitRule> {
  return new Map([...declarations.limits].map(([name, limit]) => [name, limit.rule.resolve(config)]));
}

/** `RATE_LIMIT_*` variables set in the configuration that no module declares (a typo, or a limit that went away). */
export function unknownLimitVariables(declarations: ComposedDeclarations, config: Config): string[] {
  const known = new Set([...declarations.limits.values()].map((limit) => limit.rule.variable));
  return Object.keys(config.rateLimits).filter((variable) => !known.has(variable));
}

/** Nest injection token for the app's ComposedDeclarations. */
export const DECLARATIONS = Symbol('DECLARATIONS');

/** Makes the composed declarations injectable everywhere (`@Inject(DECLARATIONS)`). */
@Global()
@Module({})
export class DeclarationsModule {
  static forDeclarations(declarations: ComposedDeclarations): DynamicModule {
    return { module: DeclarationsModule, providers: [{ provide: DECLARATIONS, useValue: declarations }], exports: [DECLARATIONS] };
  }
}
