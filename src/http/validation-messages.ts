import { getMetadataStorage, ValidationError } from 'class-validator';

/**
 * Validation failures in words (CONTRACT §17.2 "Errors"): each field that failed gets one
 * sentence naming it as a person would ("Coins per credit: use a whole number from 1 to 5."),
 * never class-validator's stock phrases, a regular expression or a property path. The sentence
 * is built from the rules the DTO declares (class-validator's metadata: `@Length(1, 80)`,
 * `@Min(1)`, `@IsIn([...])`), so DTOs stay light; a pattern (`@Matches`) or a rule of our own
 * says its words in the decorator's `message` (a phrase such as "use lower-case letters…",
 * or a whole sentence when it begins with a capital letter) or in CUSTOM_WORDS below.
 */

/** Where the values came from: it names an unknown one ("field" in a body, "query parameter"). */
export type ValueSource = 'body' | 'query' | 'param' | 'custom';

export interface FieldProblem {
  /** The property path as the caller sent it (`coinsPerCredit`): for programs. */
  field: string;
  /** Sentences for people. */
  problems: string[];
}

/** Names that splitting the camelCase would not say well. */
const FIELD_WORDS: Record<string, string> = {
  id: 'Id',
  email: 'E-mail address',
  entryUrl: 'Entry URL',
  iconKey: 'Icon',
  packId: 'Pack',
  accountId: 'Stripe account id',
  amountCents: 'Amount',
  amount_total: 'Amount',
  amount_refunded: 'Amount refunded',
};

/** A property in words: `displayName` → "Display name", `coins_per_credit` → "Coins per credit". */
export function fieldWords(property: string): string {
  const known = FIELD_WORDS[property];
  if (known) return known;
  const words = property
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\s-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'A field';
}

/** Rules of our own (`ValidateBy`) that have no `message`: what to do, as a phrase. */
const CUSTOM_WORDS: Record<string, string> = {
  noInvisibleCharacters: 'remove invisible or formatting characters such as zero-width spaces',
};

/** Rules of the value's type: when one fails, the field's whole shape is all there is to say. */
const TYPE_RULES = new Set(['isString', 'isInt', 'isNumber', 'isBoolean']);
/** Rules of form and size: a failure of one is told with the field's whole shape ("use text of 1 to 80 characters"). */
const SHAPE_RULES = new Set([...TYPE_RULES, 'isIn', 'isEmail', 'isUuid', 'isDefined', 'isNotEmpty', 'isLength', 'minLength', 'maxLength', 'min', 'max']);

interface Rule {
  name: string;
  constraints: unknown[];
  message?: unknown;
}

const MAX_NAME = 40;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function count(n: unknown): string {
  return typeof n === 'number' ? n.toLocaleString('en-US') : String(n);
}

function quoted(value: unknown): string {
  return `“${String(value)}”`;
}

/** "“a”", "“a” or “b”", "one of “a”, “b” or “c”". */
function oneOf(values: unknown[]): string {
  const list = values.map(quoted);
  if (list.length <= 1) return list[0] ?? 'an allowed value';
  const choice = `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  return list.length === 2 ? choice : `one of ${choice}`;
}

/** The rules class-validator keeps for one property of a DTO class, in declaration order. */
function rulesOf(target: unknown, property: string): Rule[] {
  if (typeof target !== 'function') return [];
  return getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .filter((m) => m.propertyName === property)
    .map((m) => ({ name: m.name ?? m.type, constraints: m.constraints ?? [], message: m.message }));
}

function rule(rules: Rule[], name: string): Rule | undefined {
  return rules.find((r) => r.name === name);
}

/** "of 1 to 80 characters", "of at most 200 characters", "" when unbounded. */
function lengthWords(rules: Rule[]): string {
  const length = rule(rules, 'isLength')?.constraints;
  let min = (length?.[0] as number | undefined) ?? (rule(rules, 'minLength')?.constraints[0] as number | undefined);
  const max = (length?.[1] as number | undefined) ?? (rule(rules, 'maxLength')?.constraints[0] as number | undefined);
  if (min === 0) min = undefined;
  if (min !== undefined && max !== undefined) return min === max ? ` of exactly ${count(min)} characters` : ` of ${count(min)} to ${count(max)} characters`;
  if (max !== undefined) return ` of at most ${count(max)} characters`;
  if (min !== undefined) return ` of at least ${count(min)} characters`;
  return '';
}

/** "from 1 to 5", "of at least 0", "" when unbounded. */
function rangeWords(rules: Rule[]): string {
  const min = rule(rules, 'min')?.constraints[0];
  const max = rule(rules, 'max')?.constraints[0];
  if (min !== undefined && max !== undefined) return ` from ${count(min)} to ${count(max)}`;
  if (min !== undefined) return ` of at least ${count(min)}`;
  if (max !== undefined) return ` of at most ${count(max)}`;
  return '';
}

/** An explicit `message` of a decorator, when it is words (a string). */
function ownWords(r: Rule | undefined): string | undefined {
  return typeof r?.message === 'string' && r.message.trim() ? r.message.trim() : undefined;
}

/** What the field takes as a whole, as a phrase beginning with "use" ("use text of 1 to 80 characters"). */
function shapeWords(rules: Rule[]): string {
  const isIn = rule(rules, 'isIn');
  if (isIn) return `use ${oneOf((isIn.constraints[0] as unknown[] | undefined) ?? [])}`;
  if (rule(rules, 'isBoolean')) return 'use true or false';
  if (rule(rules, 'isInt')) return `use a whole number${rangeWords(rules)}`;
  if (rule(rules, 'isNumber') || rule(rules, 'min') || rule(rules, 'max')) return `use a number${rangeWords(rules)}`;
  if (rule(rules, 'isEmail')) return `use an address of the form name@domain${lengthWords(rules).replace(/^ of/, ',')}`;
  if (rule(rules, 'isUuid')) return 'use an id such as 3f2b8c1e-5d4a-4f6b-9c7d-8e9f0a1b2c3d';
  // A pattern in words that the field has no length rule beside says the whole shape ("up to 48").
  const pattern = ownWords(rule(rules, 'matches'));
  const length = lengthWords(rules);
  if (pattern && !length && /^[a-z]/.test(pattern)) return pattern;
  return `use text${length}`;
}

/** The phrase for one failed rule that is not about the type or size (a pattern, a rule of our own). */
function ruleWords(r: Rule | undefined, name: string): string {
  return ownWords(r) ?? CUSTOM_WORDS[name] ?? 'use a value this field accepts';
}

/** The sentence(s) for one property that failed the given rules. */
export function propertyProblems(property: string, value: unknown, failed: string[], target: unknown): string[] {
  const field = fieldWords(property);
  if (value === undefined || value === null) return [`${field} ${/[^su]s$/.test(field) ? 'are' : 'is'} required.`];
  const rules = rulesOf(target, property);
  const sentences: string[] = [];
  const phrases: string[] = [];
  const typeFailed = failed.some((name) => TYPE_RULES.has(name));
  const shape = failed.some((name) => SHAPE_RULES.has(name)) ? shapeWords(rules) : undefined;
  if (shape) phrases.push(shape);
  // A wrong type says only the shape: whatever else failed follows from it.
  if (!typeFailed) {
    for (const name of failed) {
      if (SHAPE_RULES.has(name)) continue;
      const words = ruleWords(rule(rules, name), name);
      if (/^[A-Z]/.test(words)) sentences.push(/[.?!]$/.test(words) ? words : `${words}.`);
      else phrases.push(words.replace(/[.]$/, ''));
      // A failed pattern in words says more than "use text of 1 to 64 characters" (and names its length).
      if (name === 'matches' && shape?.startsWith('use text') && phrases[0] === shape) phrases.shift();
    }
  }
  if (phrases.length === 0 && sentences.length === 0) phrases.push('use a value this field accepts');
  return [...(phrases.length ? [`${field}: ${phrases.join('; ')}.`] : []), ...sentences];
}

/** The sentence for a property the DTO does not have (forbidNonWhitelisted): its name is the caller's, so it is clipped. */
export function unknownProblem(property: string, source: ValueSource): string {
  const what = source === 'query' ? 'query parameter' : source === 'param' ? 'path parameter' : 'field';
  return `Unknown ${what} ${quoted(clip(property, MAX_NAME))}: remove it.`;
}

/**
 * Every failed property of a validation, depth first, each with its sentences. `metatype` is the
 * DTO class validated (errors whose `target` is kept name their own class, nested ones included).
 */
export function describeValidationErrors(errors: ValidationError[], source: ValueSource, metatype?: unknown, parent = ''): FieldProblem[] {
  const known: FieldProblem[] = [];
  const unknown: FieldProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const failed = Object.keys(error.constraints ?? {});
    const target = error.target && typeof error.target === 'object' ? error.target.constructor : metatype;
    // The caller's made-up fields come last: the fields the form has matter more.
    if (failed.includes('whitelistValidation')) unknown.push({ field, problems: [unknownProblem(error.property, source)] });
    else if (failed.includes('isObject') || failed.includes('unknownValue')) known.push({ field, problems: [source === 'body' ? 'The request body must be a JSON object.' : 'The request is invalid.'] });
    else if (failed.length > 0) known.push({ field, problems: propertyProblems(error.property, error.value, failed, target) });
    known.push(...describeValidationErrors(error.children ?? [], source, undefined, field));
  }
  return [...known, ...unknown];
}

/** The `message` of a failed validation: its sentences, as many as read well, then how many more there are. */
export function validationMessage(problems: FieldProblem[], maxLength = 600): string {
  const sentences = problems.flatMap((p) => p.problems);
  if (sentences.length === 0) return 'The request is invalid.';
  let message = '';
  let shown = 0;
  for (const sentence of sentences) {
    if (shown > 0 && message.length + 1 + sentence.length > maxLength) break;
    message += (shown > 0 ? ' ' : '') + sentence;
    shown += 1;
  }
  const more = sentences.length - shown;
  if (more > 0) message += more === 1 ? ' There is 1 more problem.' : ` There are ${more} more problems.`;
  return message;
}
