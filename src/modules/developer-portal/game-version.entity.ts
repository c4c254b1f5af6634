import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type VersionStatus = 'pending' | 'approved' | 'rejected';

/** A build of a game (its entry URL), reviewed by an admin before it can be published. */
@Entity('game_versions')
@Check('game_versions_status', "status IN ('pending', 'approved', 'rejected')")
// (game_id, created_at DESC): TypeORM compares name and columns, not their order.
@Index('game_versions_game_idx', ['gameId', 'createdAt'])
// The admin's review queue by status, oldest or newest first.
@Index('game_versions_review_idx', ['status', 'createdAt', 'id'])
export class GameVersion {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'game_versions_pkey' })
  id!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'game_versions_game_id_fkey' })
  gameId!: string;

  @Column('text')
  label!: string;

  @Column('text', { name: 'entry_url' })
  entryUrl!: string;

  @Column('text', { default: 'pending' })
  status!: VersionStatus;

  @Column('text', { name: 'reject_reason', nullable: true })
  rejectReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'reviewed_at', nullable: true })
  reviewedAt!: Date | null;
}
