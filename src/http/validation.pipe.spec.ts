import 'reflect-metadata';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { InvalidRequestError } from '../errors/app-error';
import { AppValidationPipe } from './validation.pipe';

class SlugParams {
  @IsString()
  @Matches(/^[a-z0-9-]+$/)
  slug!: string;
}

class PeriodQuery {
  @IsOptional()
  @IsIn(['all', 'week'])
  period?: 'all' | 'week';
}

describe('AppValidationPipe: kept results for path and query parameters', () => {
  const pipe = new AppValidationPipe();
  const param = { type: 'param' as const, metatype: SlugParams };
  const query = { type: 'query' as const, metatype: PeriodQuery };

  it('answers a repeat with an equal, separate instance of the DTO', async () => {
    const first = await pipe.transform({ slug: 'coin-clicker' }, param);
    const again = await pipe.transform({ slug: 'coin-clicker' }, param);
    expect(again).toBeInstanceOf(SlugParams);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    (again as SlugParams).slug = 'changed';
    expect(await pipe.transform({ slug: 'coin-clicker' }, param)).toEqual({ slug: 'coin-clicker' });
  });

  it('still refuses invalid values and unknown properties, also after a valid set was kept', async () => {
    await pipe.transform({ period: 'week' }, query);
    await expect(pipe.transform({ period: 'month' }, query)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(pipe.transform({ period: 'week', extra: '1' }, query)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(pipe.transform({ period: 'week', extra: '1' }, query)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(pipe.transform({ period: ['week', 'all'] }, query)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await pipe.transform({ period: 'week' }, query)).toEqual({ period: 'week' });
  });

  it('keeps sets of different DTO classes apart', async () => {
    await pipe.transform({ slug: 'week' }, param);
    await expect(pipe.transform({ slug: 'week' }, query)).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('AppValidationPipe: failures in words (CONTRACT §17.2)', () => {
  const pipe = new AppValidationPipe();

  it('answers 400 with a sentence per field in message and details, `field` the property as sent', async () => {
    const error = await pipe.transform({ slug: 'Bad Slug', extra: 1 }, { type: 'body', metatype: SlugParams }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toBe('Slug: use a value this field accepts. Unknown field “extra”: remove it.');
    expect((error as InvalidRequestError).details).toEqual({
      details: [
        { field: 'slug', problems: ['Slug: use a value this field accepts.'] },
        { field: 'extra', problems: ['Unknown field “extra”: remove it.'] },
      ],
    });
  });

  it('says "query parameter" for a query, also after a valid set was kept', async () => {
    const query = { type: 'query' as const, metatype: PeriodQuery };
    await pipe.transform({ period: 'all' }, query);
    const error = await pipe.transform({ period: 'month', surprise: '1' }, query).catch((e: unknown) => e);
    expect((error as InvalidRequestError).message).toBe('Period: use “all” or “week”. Unknown query parameter “surprise”: remove it.');
  });
});
