import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Service-wide settings generated once and shared by every instance (the PlayerRef secret). */
@Entity('app_settings')
export class AppSetting {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'app_settings_pkey' })
  key!: string;

  @Column('text')
  value!: string;
}
