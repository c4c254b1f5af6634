import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Service-wide settings generated once and shared by every instance. Infrastructure, not a context:
 * each key belongs to one module (player_ref_secret: play-sessions; payment_webhook_secret: payments).
 */
@Entity('app_settings')
export class AppSetting {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'app_settings_pkey' })
  key!: string;

  @Column('text')
  value!: string;
}
