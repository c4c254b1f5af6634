import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * A game's thumbnail (CONTRACT §17.2): the 640×360 WebP re-encoded once at upload, and the hash of
 * those bytes that its address carries. One per game; replaced by the next upload, deleted by the
 * developer. Kept apart from `games` so that reading a game never reads the image.
 */
@Entity('game_thumbnails')
@Check('game_thumbnails_hash_format', "hash ~ '^[0-9a-f]{16}$'")
@Check('game_thumbnails_image_size', 'octet_length(image) BETWEEN 1 AND 1048576')
export class GameThumbnail {
  @PrimaryColumn('uuid', { name: 'game_id', primaryKeyConstraintName: 'game_thumbnails_pkey' })
  @ForeignKey('games', { name: 'game_thumbnails_game_id_fkey' })
  gameId!: string;

  @Column('text')
  hash!: string;

  @Column('bytea')
  image!: Buffer;

  @Column('timestamptz', { name: 'uploaded_at', default: () => 'now()' })
  uploadedAt!: Date;
}
