import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import sharp from 'sharp';
import { CONFIG, Config } from '../config';
import { UnitOfWork } from '../database/unit-of-work';
import { AchievementDefinitionsService } from '../modules/developer-portal';
import { DevelopersService } from '../modules/developer-portal';
import { GamesService } from '../modules/developer-portal';
import { GameThumbnailsService } from '../modules/developer-portal';
import { AccountsService } from '../modules/identity';
import { normalizeEmail } from '../modules/identity';
import { WalletService } from '../modules/wallet';
import { DEMO_THUMBNAIL_SVG } from './demo-thumbnail';

/** The demo world's fixed accounts (CONTRACT §1): only ever seeded when SEED_DEMO is on. */
export const DEMO = {
  admin: { email: 'admin@demo.arcade.test', password: 'demo-admin-pass', displayName: 'Arcade Admin' },
  developer: { email: 'developer@demo.arcade.test', password: 'demo-developer-pass', displayName: 'Demo Studio' },
  player: { email: 'player@demo.arcade.test', password: 'demo-player-pass', displayName: 'Demo Player' },
  playerCoins: 100,
  game: {
    slug: 'coin-clicker',
    title: 'Coin Clicker',
    coinsPerCredit: 2,
    maxScore: 100_000,
    entryUrl: '/demo-games/coin-clicker/',
    description: 'Tap the coin as fast as you can: every tap is worth 10 points.\nA round lasts ten seconds, and a credit costs two coins.\n\nFour achievements to unlock, one of them a secret.',
  },
  achievements: [
    { key: 'first-coin', name: 'First Coin', description: 'Insert your first coin.', iconKey: 'coin', secret: false },
    { key: 'quick-fingers', name: 'Quick Fingers', description: 'Tap the coin 10 times in one round.', iconKey: 'bolt', secret: false },
    { key: 'marathon', name: 'Marathon Tapper', description: 'Tap the coin 40 times in one round.', iconKey: 'fire', secret: false },
    { key: 'zen', name: 'Zen Master', description: 'End a round without tapping at all.', iconKey: 'moon', secret: true },
  ],
} as const;

/** What the start-up banner shows of the demo world. */
export interface DemoWorld {
  seeded: boolean;
  playUrl: string;
  accounts: { role: 'player' | 'developer' | 'admin'; email: string; password: string }[];
}

/**
 * Seeds the demo world on an empty database (SEED_DEMO): an admin, a developer with the published
 * Coin Clicker (with its description and thumbnail) and four achievements (one secret), and a verified player holding 100 coins. Built
 * through the identity, developer-portal and wallet services in one transaction; an advisory lock
 * makes instances that start together seed it once.
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  /** Set at start-up when the demo world is there (seeded now or earlier); main.ts prints it. */
  demoWorld: DemoWorld | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly developers: DevelopersService,
    private readonly games: GamesService,
    private readonly thumbnails: GameThumbnailsService,
    private readonly achievements: AchievementDefinitionsService,
    private readonly wallets: WalletService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemo) return;
    const seeded = await this.uow.run(async () => {
      await this.uow.query("SELECT pg_advisory_xact_lock(hashtext('arcade:demo-seed'))");
      if (!(await this.databaseIsEmpty())) return false;
      await this.seed();
      return true;
    });
    if (seeded || (await this.games.findBySlug(DEMO.game.slug))) this.announce(seeded);
  }

  /** Empty: no games and no accounts except the configured ADMIN_EMAIL (bootstrapped separately). */
  private async databaseIsEmpty(): Promise<boolean> {
    const row = await this.uow.one<{ used: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM games)
           OR EXISTS (SELECT 1 FROM accounts WHERE lower(email) <> lower(coalesce($1::text, ''))) AS used`,
      [this.config.adminEmail ? normalizeEmail(this.config.adminEmail) : null],
    );
    return !row!.used;
  }

  private async seed(): Promise<void> {
    const withAdmin = !this.config.adminEmail;
    if (withAdmin) await this.accounts.createReadyAccount({ ...DEMO.admin, admin: true });
    const developerAccount = await this.accounts.createReadyAccount({ ...DEMO.developer, admin: false });
    const { developer } = await this.developers.become(developerAccount, DEMO.developer.displayName);
    const { slug, title, coinsPerCredit, maxScore, entryUrl, description } = DEMO.game;
    const game = await this.games.create(developer.developerId, { slug, title, coinsPerCredit, maxScore });
    // Its face: the description, and the drawing rendered to a PNG and uploaded as a developer would.
    await this.games.update(developer.developerId, game.gameId, { description });
    const picture = await sharp(Buffer.from(DEMO_THUMBNAIL_SVG)).png().toBuffer();
    await this.thumbnails.upload(developer.developerId, game.gameId, { bytes: picture, typeAccepted: true });
    // The developer's own actions are audited as theirs; the approval is the seed's, nobody's.
    const actor = { actorId: developerAccount, requestId: null };
    const version = await this.games.addVersion(actor, developer.developerId, game.gameId, { label: '1.0.0', entryUrl });
    await this.games.reviewVersion(null, version.versionId, 'approved');
    await this.games.publish(actor, developer.developerId, game.gameId, version.versionId);
    for (const achievement of DEMO.achievements) {
      await this.achievements.create(developer.developerId, game.gameId, { ...achievement });
    }
    const playerAccount = await this.accounts.createReadyAccount({ ...DEMO.player, admin: false });
    const walletId = await this.wallets.walletIdOfAccount(playerAccount);
    await this.wallets.credit(walletId!, DEMO.playerCoins, 'Demo world: welcome coins');
  }

  private announce(seeded: boolean): void {
    this.demoWorld = {
      seeded,
      playUrl: `${this.config.publicOrigin}/play/${DEMO.game.slug}`,
      accounts: [
        { role: 'player', email: DEMO.player.email, password: DEMO.player.password },
        { role: 'developer', email: DEMO.developer.email, password: DEMO.developer.password },
        this.config.adminEmail
          ? { role: 'admin', email: this.config.adminEmail, password: '(ADMIN_PASSWORD)' }
          : { role: 'admin', email: DEMO.admin.email, password: DEMO.admin.password },
      ],
    };
  }
}
