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
