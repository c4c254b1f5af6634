import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { Developer } from './developer.entity';

export interface DeveloperRow {
  id: string;
  display_name: string;
}

@Injectable()
export class DeveloperRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** Creates the developer once per account; `created` is false when it already existed. */
  async ensure(accountId: string, displayName: string): Promise<{ developer: DeveloperRow; created: boolean }> {
    const developers = this.uow.manager.getRepository(Developer);
    const inserted = await developers.createQueryBuilder().insert().values({ accountId, displayName }).orIgnore().returning('id, display_name').execute();
    const row = (inserted.raw as DeveloperRow[])[0];
    if (row) return { developer: row, created: true };
    const existing = await developers.findOneByOrFail({ accountId });
    return { developer: { id: existing.id, display_name: existing.displayName }, created: false };
  }
}
