import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One play of a game by a player (paid or test mode), kept alive by heartbeats and play actions. */
@Entity('play_sessions')
@Check('play_sessions_player_ref_format', "player_ref ~ '^pr_[0-9a-f]{32}$'")
@Check('play_sessions_coins_per_credit_range', 'coins_per_credit BETWEEN 1 AND 5')
// (player_id, started_at DESC): TypeORM compares name and columns, not their order.
@Index('play_sessions_player_idx', ['playerId', 'startedAt'])
@Index('play_sessions_game_idx', ['gameId'])
export class PlaySession {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'play_sessions_pkey' })
  id!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'play_sessions_game_id_fkey' })
  gameId!: string;

  @Column('uuid', { name: 'game_version_id' })
  @ForeignKey('game_versions', { name: 'play_sessions_game_version_id_fkey' })
  gameVersionId!: string;

  @Column('uuid', { name: 'player_id' })
  @ForeignKey('players', { name: 'play_sessions_player_id_fkey' })
  playerId!: string;

  @Column('text', { name: 'player_ref' })
  playerRef!: string;

  @Column('boolean', { name: 'test_mode' })
  testMode!: boolean;

  @Column('smallint', { name: 'coins_per_credit' })
  coinsPerCredit!: number;

  @Column('timestamptz', { name: 'started_at', default: () => 'now()' })
  startedAt!: Date;

  @Column('timestamptz', { name: 'last_seen_at', default: () => 'now()' })
  lastSeenAt!: Date;

  @Column('timestamptz', { name: 'ended_at', nullable: true })
  endedAt!: Date | null;
}
