import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';

export interface DeveloperRow {
  id: string;
  display_name: string;
}

@Injectable()
export class DeveloperRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** Creates the developer once per account; `created` is false when it already existed. */
  async ensure(accountId: string, displayName: string): Promise<{ developer: DeveloperRow; created: boolean }> {
    const inserted = await this.uow.one<DeveloperRow>(
      `INSERT INTO developers (account_id, display_name) VALUES ($1, $2)
       ON CONFLICT (account_id) DO NOTHING RETURNING id, display_name`,
      [accountId, displayName],
    );
    if (inserted) return { developer: inserted, created: true };
    const existing = await this.uow.one<DeveloperRow>('SELECT id, display_name FROM developers WHERE account_id = $1', [accountId]);
    return { developer: existing!, created: false };
  }
}
