import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A player's first unlock of an achievement (once per player and achievement). */
@Entity('achievement_unlocks')
@Index('achievement_unlocks_achievement_idx', ['achievementId'])
export class AchievementUnlock {
  @PrimaryColumn('uuid', { name: 'player_id', primaryKeyConstraintName: 'achievement_unlocks_pkey' })
  @ForeignKey('players', { name: 'achievement_unlocks_player_id_fkey' })
  playerId!: string;

  @PrimaryColumn('uuid', { name: 'achievement_id', primaryKeyConstraintName: 'achievement_unlocks_pkey' })
  @ForeignKey('achievements', { name: 'achievement_unlocks_achievement_id_fkey' })
  achievementId!: string;

  @Column('uuid', { name: 'play_session_id' })
  @ForeignKey('play_sessions', { name: 'achievement_unlocks_play_session_id_fkey' })
  playSessionId!: string;

  @Column('timestamptz', { name: 'unlocked_at', default: () => 'now()' })
  unlockedAt!: Date;
}
