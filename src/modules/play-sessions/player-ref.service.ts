import { randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { UnitOfWork } from '../../database/unit-of-work';
import { playerRef } from './player-ref';

const SETTING = 'player_ref_secret';

/**
 * The PlayerRef secret: PLAYER_REF_SECRET, else one generated on first start and kept in
 * app_settings, so refs survive restarts. Instances starting together agree: the first insert
 * wins and everyone reads the winner.
 */
@Injectable()
export class PlayerRefService implements OnModuleInit {
  private secret: string | undefined;

  constructor(@Inject(CONFIG) private readonly config: Config, private readonly uow: UnitOfWork) {}

  async onModuleInit(): Promise<void> {
    if (this.config.playerRefSecret) {
      this.secret = this.config.playerRefSecret;
      return;
    }
    await this.uow.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      SETTING,
      randomBytes(32).toString('hex'),
    ]);
    const row = await this.uow.one<{ value: string }>('SELECT value FROM app_settings WHERE key = $1', [SETTING]);
    this.secret = row!.value;
  }

  refFor(developerId: string, playerId: string): string {
    if (!this.secret) throw new Error('PlayerRefService used before start-up finished.');
    return playerRef(this.secret, developerId, playerId);
  }
}
