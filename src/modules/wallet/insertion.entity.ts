import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A paid coin insertion: the debit it was paid with, its play session and game. Append-only (insertions_append_only, insertions_no_truncate). */
@Entity('insertions')
@Unique('insertions_ledger_entry_key', ['ledgerEntryId'])
@Check('insertions_coins_positive', 'coins >= 1')
// (play_session_id, created_at DESC, id DESC): TypeORM compares name and columns, not their order.
@Index('insertions_play_session_idx', ['playSessionId', 'createdAt', 'id'])
@Index('insertions_game_idx', ['gameId'])
export class Insertion {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'insertions_pkey' })
  id!: string;

  @Column('uuid', { name: 'play_session_id' })
  @ForeignKey('play_sessions', { name: 'insertions_play_session_id_fkey' })
  playSessionId!: string;

  @Column('uuid', { name: 'game_id' })
  @ForeignKey('games', { name: 'insertions_game_id_fkey' })
  gameId!: string;

  @Column('uuid', { name: 'player_id' })
  @ForeignKey('players', { name: 'insertions_player_id_fkey' })
  playerId!: string;

  @Column('bigint', { name: 'ledger_entry_id' })
  @ForeignKey('ledger_entries', { name: 'insertions_ledger_entry_id_fkey' })
  ledgerEntryId!: string;

  @Column('integer')
  coins!: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
