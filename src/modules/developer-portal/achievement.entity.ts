import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type AchievementStatus = 'active' | 'retired';

/** An achievement definition of a game: at most 50, in the developer's order, keyed per game. */
@Entity('achievements')
@Unique('achievements_game_key_key', ['gameId', 'key'])
@Unique('achievements_game_position_key', ['gameId', 'position'])
@Check('achievements_position_range', 'position BETWEEN 1 AND 50')
@Check('achievements_key_format', "key ~ '^[a-z0-9][a-z0-9_-]{0,47}$'")
@Check('achievements_name_length', 'char_length(name) BETWEEN 1 AND 40')
@Check('achievements_description_length', 'char_length(description) <= 160')
@Check('achievements_status', "status IN ('active', 'retired')")
export class Achievement {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'achievements_pkey' })
  id!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'achievements_game_id_fkey' })
  gameId!: string;

  @Column('text')
  key!: string;

  @Column('text')
  name!: string;

  @Column('text')
  description!: string;

  @Column('text', { name: 'icon_key' })
  iconKey!: string;

  @Column('boolean', { default: false })
  secret!: boolean;

  @Column('text', { default: 'active' })
  status!: AchievementStatus;

  @Column('integer')
  position!: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}
