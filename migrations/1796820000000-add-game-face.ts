import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Games have a face (CONTRACT §17.2): a plain-text description of up to 2,000 characters on the
 * game ('' when none), and a thumbnail in a table of its own, one row per game: the 640×360 WebP
 * re-encoded once at upload, and the hash of those bytes that its address carries (so the address
 * may be cached for a year). Reads of games never load the image; the image is read only by its address.
 */
export class AddGameFace1796820000000 implements MigrationInterface {
  name = 'AddGameFace1796820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE games ADD COLUMN description text NOT NULL DEFAULT '';
      ALTER TABLE games ADD CONSTRAINT games_description_length CHECK (char_length(description) <= 2000);

      CREATE TABLE game_thumbnails (
        game_id uuid NOT NULL,
        hash text NOT NULL,
        image bytea NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT game_thumbnails_pkey PRIMARY KEY (game_id),
        CONSTRAINT game_thumbnails_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id),
        CONSTRAINT game_thumbnails_hash_format CHECK (hash ~ '^[0-9a-f]{16}$'),
        CONSTRAINT game_thumbnails_image_size CHECK (octet_length(image) BETWEEN 1 AND 1048576)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE game_thumbnails;
      ALTER TABLE games DROP CONSTRAINT games_description_length;
      ALTER TABLE games DROP COLUMN description;
    `);
  }
}
