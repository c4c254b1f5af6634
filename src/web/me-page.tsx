/**
 * `/me` (CONTRACT §17, §17.1): the player's name, level, XP, balance and initials; wallet history
 * 50 a page with "Older"; achievements across games; purchases and "Buy coins" (§19).
 */
import { BuyCoins, PackOnSale } from '../modules/payments';
import type { UnlockedAchievement } from '../modules/achievements';
import { levelOf, xpToNextLevel } from '../modules/identity';
import type { LedgerEntryView, WalletPage } from '../modules/wallet';
import { wholeNumberText } from '../http/pages/formats';
import { ApiForm, Cell, DataTable, Icon, Money, Submit, TextField, When } from '../http/pages/components';
import { Layout, Viewer } from '../http/pages/layout';
import { VerifyEmailNotice } from './verify-email-notice';

/** A purchase as /me lists it (§19). */
export interface PurchaseRow {
  purchaseId: string;
  coins: number;
  priceUsd: string;
  status: string;
  createdAt: Date;
}

/** A coin pack on sale (§19): "Buy coins" offers one button per pack. */
export type CoinPack = PackOnSale;

export interface MePageProps {
  viewer: Viewer;
  /** The player's XP (0 without a player profile). */
  xp: number;
  /** Null for an account without a player profile (no wallet). */
  wallet: WalletPage | null;
  /** True on an older page of the wallet history (`?before=`). */
  olderPage: boolean;
  achievements: UnlockedAchievement[];
  purchases: PurchaseRow[];
  packs: CoinPack[];
}

function entryText(entry: LedgerEntryView): string {
  if (entry.kind === 'debit') return entry.gameSlug ? `Coin inserted · ${entry.gameSlug}` : 'Coin inserted';
  if (entry.kind === 'credit') return entry.reason ? `Credit · ${entry.reason}` : 'Credit';
  // Payments (§19): a pack bought, coins taken back for a refund or dispute, an insertion's coins returned.
  if (entry.kind === 'purchase') return 'Coins bought';
  if (entry.kind === 'refund') return entry.reason ?? 'Coins taken back';
  if (entry.kind === 'refund_reversal' || entry.kind === 'dispute_won') return entry.reason ?? 'Coins returned';
  if (entry.kind === 'void') return entry.gameSlug ? `Coin returned · ${entry.gameSlug}` : 'Coin returned';
  return entry.reason ? `${entry.kind} · ${entry.reason}` : entry.kind;
}

function Facts(props: { xp: number; balance: number | null; initials: string | null }) {
  const facts: [string, string][] = [
    ['Level', wholeNumberText(levelOf(props.xp))],
    ['XP', wholeNumberText(props.xp)],
    ['XP to next level', wholeNumberText(xpToNextLevel(props.xp))],
    ['Balance', props.balance === null ? '—' : wholeNumberText(props.balance)],
    ['Initials', props.initials ?? '—'],
  ];
  return (
    <dl class="facts">
      {facts.map(([term, value]) => (
        <div>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function WalletHistory(props: { wallet: WalletPage; olderPage: boolean }) {
  const { wallet } = props;
  return (
    <>
      <DataTable
        caption="Wallet history"
        columns={['When', 'Entry', { label: 'Coins', num: true }, { label: 'Balance after', num: true }]}
        rows={wallet.entries}
        empty="No coins yet."
        row={(entry) => (
          <tr>
            <Cell label="When">
              <When at={entry.createdAt} />
            </Cell>
            <Cell label="Entry">{entryText(entry)}</Cell>
            <Cell label="Coins" class="num">
              {entry.delta > 0 ? `+${wholeNumberText(entry.delta)}` : wholeNumberText(entry.delta)}
            </Cell>
            <Cell label="Balance after" class="num">
              {wholeNumberText(entry.balanceAfter)}
            </Cell>
          </tr>
        )}
      />
      <p class="pager">
        {props.olderPage ? <a href="/me">Newest entries</a> : null}
        {wallet.nextBefore ? <a href={`/me?before=${encodeURIComponent(wallet.nextBefore)}`}>Older</a> : null}
      </p>
    </>
  );
}

function Achievements(props: { achievements: UnlockedAchievement[] }) {
  return (
    <section aria-labelledby="achievements-heading">
      <h2 id="achievements-heading">Achievements</h2>
      {props.achievements.length === 0 ? (
        <p>None yet: play a game and unlock your first.</p>
      ) : (
        <ul class="achievements" aria-labelledby="achievements-heading">
          {props.achievements.map((a) => (
            <li class="achievement unlocked">
              <span class="achievement-icon">
                <Icon iconKey={a.iconKey} />
              </span>
              <span class="achievement-text">
                <strong>{a.name}</strong>
                <span>{a.gameTitle}</span>
              </span>
              <span class="achievement-state">
                <When at={a.unlockedAt} dateOnly />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Purchases (§19), and "Buy coins" for a player (one button per pack; back here after paying). */
function Purchases(props: { purchases: PurchaseRow[]; packs: CoinPack[]; canBuy: boolean }) {
  return (
    <section aria-labelledby="purchases-heading" id="purchases">
      <h2 id="purchases-heading">Purchases</h2>
      {props.canBuy && props.packs.length > 0 ? <BuyCoins id="me-buy-coins" packs={props.packs} returnTo="/me" /> : null}
      <DataTable
        caption="Purchases"
        captionHidden
        columns={['When', { label: 'Coins', num: true }, { label: 'Price', num: true }, 'Status']}
        rows={props.purchases}
        empty="No purchases yet."
        row={(purchase) => (
          <tr>
            <Cell label="When">
              <When at={purchase.createdAt} />
            </Cell>
            <Cell label="Coins" class="num">
              {wholeNumberText(purchase.coins)}
            </Cell>
            <Cell label="Price" class="num">
              <Money usd={purchase.priceUsd} />
            </Cell>
            <Cell label="Status">{purchase.status}</Cell>
          </tr>
        )}
      />
    </section>
  );
}

export function MePage(props: MePageProps) {
  const { viewer } = props;
  return (
    <Layout title="My profile" viewer={viewer} page="me" section="me">
      <h1>{viewer.displayName}</h1>
      <p class="lead">{viewer.email}</p>
      <p>
        <a href="/me/settings">Settings</a>: password, e-mail, signed-in devices, two-factor, your data and deleting the account.
      </p>
      {viewer.emailVerified ? null : <VerifyEmailNotice email={viewer.email} />}
      <Facts xp={props.xp} balance={props.wallet?.balance ?? null} initials={viewer.playerId ? viewer.playerInitials : null} />
      {props.wallet ? (
        <WalletHistory wallet={props.wallet} olderPage={props.olderPage} />
      ) : (
        <div class="panel narrow">
          <ApiForm method="POST" action="/api/me/player" labelledBy="player-heading" flash="Your player profile is ready.">
            <h2 id="player-heading">Create player profile</h2>
            <p>A player profile gives you a wallet, XP and high-score initials.</p>
            <TextField id="player-name" label="Display name" name="displayName" value={viewer.displayName} required />
            <Submit>Create player profile</Submit>
          </ApiForm>
        </div>
      )}
      <Achievements achievements={props.achievements} />
      <Purchases purchases={props.purchases} packs={props.packs} canBuy={viewer.playerId !== null} />
    </Layout>
  );
}
