import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type GameStatus = 'unpublished' | 'published' | 'suspended';

/** A developer's game: its slug, price in coins per credit, score range and publication status. */
@Entity('games')
@Unique('games_slug_key', ['slug'])
@Check('games_slug_format', "slug ~ '^[a-z0-9-]{1,64}$'")
@Check('games_coins_per_credit_range', 'coins_per_credit BETWEEN 1 AND 5')
@Check('games_max_score_range', 'max_score BETWEEN 0 AND 9007199254740991')
@Check('games_status', "status IN ('unpublished', 'published', 'suspended')")
@Check('games_description_length', 'char_length(description) <= 2000')
@Index('games_developer_idx', ['developerId'])
// (first_published_at DESC, id DESC) WHERE published: TypeORM compares name and columns, not their order.
@Index('games_catalogue_idx', ['firstPublishedAt', 'id'], { where: "status = 'published'" })
// The admin's list of games, newest first (created_at DESC, id DESC), all or of one status.
@Index('games_created_idx', ['createdAt', 'id'])
@Index('games_status_created_idx', ['status', 'createdAt', 'id'])
// The admin's search: GIN trigram indexes on slug and lower(title), which TypeORM cannot express.
@Index('games_slug_search_idx', { synchronize: false })
@Index('games_title_search_idx', { synchronize: false })
export class Game {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'games_pkey' })
  id!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'games_developer_id_fkey' })
  developerId!: string;

  @Column('text')
  slug!: string;

  @Column('text')
  title!: string;

  /** Plain text shown with its line breaks (CONTRACT §17.2); '' when none. */
  @Column('text', { default: '' })
  description!: string;

  @Column('smallint', { name: 'coins_per_credit' })
  coinsPerCredit!: number;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'max_score', default: '9007199254740991' })
  maxScore!: string;

  @Column('text', { default: 'unpublished' })
  status!: GameStatus;

  @Column('uuid', { name: 'current_version_id', nullable: true })
  @ForeignKey('game_versions', { name: 'games_current_version_fk' })
  currentVersionId!: string | null;

  @Column('timestamptz', { name: 'first_published_at', nullable: true })
  firstPublishedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}
