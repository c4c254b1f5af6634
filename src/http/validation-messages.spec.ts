import 'reflect-metadata';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, validate } from 'class-validator';
import { describeValidationErrors, fieldWords, validationMessage } from './validation-messages';
import { NoInvisibleCharacters } from './visible-text';

class GameForm {
  @IsString()
  @Length(1, 64)
  @Matches(/^[a-z0-9-]+$/, { message: 'use lower-case letters, digits and -, up to 64' })
  slug!: string;

  @IsString()
  @Length(1, 80)
  title!: string;

  @IsInt()
  @Min(1)
  @Max(5)
  coinsPerCredit!: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(9_007_199_254_740_991)
  maxScore?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  reason?: string;

  @IsOptional()
  @IsIn(['live', 'test'])
  kind?: string;

  @IsOptional()
  @IsIn(['all', 'week', 'month'])
  period?: string;

  @IsOptional()
  @IsBoolean()
  secret?: boolean;
}

class KeyForm {
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,47}$/, { message: 'use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit' })
  key!: string;
}

class PersonForm {
  @IsEmail()
  @MaxLength(254)
  @NoInvisibleCharacters()
  email!: string;

  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'use at least one character that is not a space' })
  @NoInvisibleCharacters({ emojiPresentation: true })
  displayName!: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'Initials are three capital letters, such as AAA.' })
  initials?: string;
}

async function problems<T extends object>(type: new () => T, value: Record<string, unknown>, source: 'body' | 'query' = 'body') {
  const errors = await validate(Object.assign(new type(), value), { whitelist: true, forbidNonWhitelisted: true, validationError: { target: true, value: true } });
  return describeValidationErrors(errors, source, type);
}

async function sentences<T extends object>(type: new () => T, value: Record<string, unknown>, source: 'body' | 'query' = 'body') {
  return (await problems(type, value, source)).flatMap((p) => p.problems);
}

const valid = { slug: 'coin-clicker', title: 'Coin Clicker', coinsPerCredit: 2 };

describe('fieldWords: a property in words', () => {
  it.each([
    ['displayName', 'Display name'],
    ['idempotencyKey', 'Idempotency key'],
    ['coinsPerCredit', 'Coins per credit'],
    ['entryUrl', 'Entry URL'],
    ['email', 'E-mail address'],
    ['iconKey', 'Icon'],
    ['amount_total', 'Amount'],
    ['checkout_session_id', 'Checkout session id'],
    ['userID', 'User id'],
    ['slug', 'Slug'],
  ])('%s → %s', (property, words) => {
    expect(fieldWords(property)).toBe(words);
  });
});

describe('describeValidationErrors: one sentence per field, from the rules the DTO declares', () => {
  it('says a missing field is required, with the verb the words take', async () => {
    expect(await sentences(GameForm, {})).toEqual(['Slug is required.', 'Title is required.', 'Coins per credit is required.']);
  });

  it('puts text, number, choice and true/false rules in words', async () => {
    expect(await sentences(GameForm, { ...valid, title: '', coinsPerCredit: 9, maxScore: -1, reason: 'x'.repeat(201), kind: 'demo', period: 'day', secret: 'yes' })).toEqual([
      'Title: use text of 1 to 80 characters.',
      'Coins per credit: use a whole number from 1 to 5.',
      'Max score: use a whole number from 0 to 9,007,199,254,740,991.',
      'Reason: use text of at most 200 characters.',
      'Kind: use “live” or “test”.',
      'Period: use one of “all”, “week” or “month”.',
      'Secret: use true or false.',
    ]);
  });

  it('tells a wrong type by the field’s whole shape, nothing else', async () => {
    expect(await sentences(GameForm, { ...valid, slug: 5, title: ['a'], coinsPerCredit: 'two' })).toEqual([
      'Slug: use text of 1 to 64 characters.',
      'Title: use text of 1 to 80 characters.',
      'Coins per credit: use a whole number from 1 to 5.',
    ]);
    expect(await sentences(KeyForm, { key: 5 })).toEqual(['Key: use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit.']);
  });

  it('says a pattern in the words of its decorator, instead of the plain length it already names', async () => {
    expect(await sentences(KeyForm, { key: 'Bad Key' })).toEqual(['Key: use lower-case letters, digits, - and _, up to 48, starting with a letter or a digit.']);
    expect(await sentences(GameForm, { ...valid, slug: 'Bad Slug' })).toEqual(['Slug: use lower-case letters, digits and -, up to 64.']);
    expect(await sentences(GameForm, { ...valid, slug: '' })).toEqual(['Slug: use lower-case letters, digits and -, up to 64.']);
    expect(await sentences(GameForm, { ...valid, slug: 'x'.repeat(65) })).toEqual(['Slug: use text of 1 to 64 characters.']);
  });

  it('joins the phrases of several failed rules, and keeps a decorator’s whole sentence as it is', async () => {
    expect(await sentences(PersonForm, { email: 'ada\u200b', displayName: 'Ada\u202e', initials: 'ab' })).toEqual([
      'E-mail address: use an address of the form name@domain, at most 254 characters; remove invisible or formatting characters such as zero-width spaces.',
      'Display name: remove invisible or formatting characters such as zero-width spaces.',
      'Initials are three capital letters, such as AAA.',
    ]);
    expect(await sentences(PersonForm, { email: 'ada@example.test', displayName: '   ' })).toEqual(['Display name: use at least one character that is not a space.']);
  });

  it('names an unknown field (clipped: the caller made it up) after the known ones, and keeps `field` machine-readable', async () => {
    const long = `x${'y'.repeat(100)}`;
    expect(await problems(GameForm, { ...valid, surprise: 1, [long]: 2, title: '' })).toEqual([
      { field: 'title', problems: ['Title: use text of 1 to 80 characters.'] },
      { field: 'surprise', problems: ['Unknown field “surprise”: remove it.'] },
      { field: long, problems: [`Unknown field “x${'y'.repeat(38)}…”: remove it.`] },
    ]);
    expect(await sentences(GameForm, { ...valid, surprise: '1' }, 'query')).toEqual(['Unknown query parameter “surprise”: remove it.']);
  });
});

describe('validationMessage', () => {
  it('joins the sentences, and counts those that do not fit', () => {
    const field = (n: number) => ({ field: `f${n}`, problems: [`Field ${n}: use text of 1 to 80 characters.`] });
    expect(validationMessage([field(1), field(2)])).toBe('Field 1: use text of 1 to 80 characters. Field 2: use text of 1 to 80 characters.');
    const many = validationMessage(Array.from({ length: 30 }, (_, i) => field(i)), 200);
    expect(many).toBe(
      'Field 0: use text of 1 to 80 characters. Field 1: use text of 1 to 80 characters. Field 2: use text of 1 to 80 characters. Field 3: use text of 1 to 80 characters. There are 26 more problems.',
    );
    expect(validationMessage([])).toBe('The request is invalid.');
  });
});
