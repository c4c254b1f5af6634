import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Your best" (CONTRACT §17.2, `GET /api/games/{slug}/leaderboard/me`): a player's best saved score
 * of a game is the first entry of this index, so reading it never walks the game's other scores;
 * its rank is then counted on the board indexes (scores_board_all_idx, scores_board_week_idx).
 */
export class AddPlayerBestIndex1796810000000 implements MigrationInterface {
  name = 'AddPlayerBestIndex1796810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX scores_player_best_idx ON scores (player_id, game_id, score DESC, achieved_at ASC, id)
        WHERE removed_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX scores_player_best_idx;');
  }
}
