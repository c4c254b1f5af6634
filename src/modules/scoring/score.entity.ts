import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type ScoreSource = 'player' | 'trusted';

/** A saved score: one per paid insertion, on the boards once it has initials. */
@Entity('scores')
@Unique('scores_insertion_key', ['insertionId'])
@Check('scores_score_range', 'score BETWEEN 0 AND 9007199254740991')
@Check('scores_source', "source IN ('player', 'trusted')")
@Check('scores_initials_format', "initials ~ '^[A-Z]{3}$'")
// The boards' partial indexes are (game_id, score DESC, achieved_at, id) and the same behind
// week_start, the admin's list (game_id, score DESC, achieved_at, id): TypeORM compares their
// names and columns, not the order of a column.
@Index('scores_board_all_idx', ['gameId', 'score', 'achievedAt', 'id'], { where: 'initials IS NOT NULL AND removed_at IS NULL' })
@Index('scores_board_week_idx', ['gameId', 'weekStart', 'score', 'achievedAt', 'id'], { where: 'initials IS NOT NULL AND removed_at IS NULL' })
@Index('scores_game_all_idx', ['gameId', 'score', 'achievedAt', 'id'])
@Index('scores_game_week_idx', ['gameId', 'weekStart', 'score', 'achievedAt', 'id'])
// A player's best of a game, for "Your best": (player_id, game_id, score DESC, achieved_at, id).
@Index('scores_player_best_idx', ['playerId', 'gameId', 'score', 'achievedAt', 'id'], { where: 'removed_at IS NULL' })
@Index('scores_pending_initials_idx', ['playerId'], { where: 'needs_initials AND initials IS NULL' })
@Index('scores_play_session_idx', ['playSessionId'])
export class Score {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'scores_pkey' })
  id!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'scores_game_id_fkey' })
  gameId!: string;

  @Column('uuid', { name: 'insertion_id' })
  @ForeignKey('insertions', { name: 'scores_insertion_id_fkey' })
  insertionId!: string;

  @Column('uuid', { name: 'play_session_id' })
  @ForeignKey('play_sessions', { name: 'scores_play_session_id_fkey' })
  playSessionId!: string;

  @Column('uuid', { name: 'player_id' })
  @ForeignKey('players', { name: 'scores_player_id_fkey' })
  playerId!: string;

  /** bigint: read as a string (scores go up to 2^53 - 1). */
  @Column('bigint')
  score!: string;

  @Column('text')
  source!: ScoreSource;

  @Column('text', { nullable: true })
  initials!: string | null;

  @Column('boolean', { name: 'needs_initials', default: false })
  needsInitials!: boolean;

  @Column('timestamptz', { name: 'achieved_at', default: () => 'now()' })
  achievedAt!: Date;

  /** Monday (UTC) of the ISO week of achieved_at, YYYY-MM-DD. */
  @Column('date', { name: 'week_start' })
  weekStart!: string;

  /** Set by an admin's removal: off every board, kept for the record. */
  @Column('timestamptz', { name: 'removed_at', nullable: true })
  removedAt!: Date | null;
}
