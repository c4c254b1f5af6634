import { Injectable } from '@nestjs/common';
import { DeveloperRepository } from './developer.repository';

export interface DeveloperView {
  developerId: string;
  displayName: string;
}

@Injectable()
export class DevelopersService {
  constructor(private readonly developers: DeveloperRepository) {}

  /** Gives the account role developer; a repeat returns the same developer unchanged. */
  async become(accountId: string, displayName: string): Promise<{ developer: DeveloperView; created: boolean }> {
    const { developer, created } = await this.developers.ensure(accountId, displayName);
    return { developer: { developerId: developer.id, displayName: developer.display_name }, created };
  }
}
