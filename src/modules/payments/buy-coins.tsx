/**
 * "Buy coins" (CONTRACT §17.1, §19): a button that shows one button per pack ("Buy 10 coins",
 * ...); each creates a purchase (POST /api/me/purchases) and opens its checkoutUrl with `?return=`
 * this page (the page script, src/web/pages/buy-coins.ts).
 */
import { moneyText, wholeNumberText } from '../../http/pages/formats';

/** A pack as GET /api/shop/packs answers it. */
export interface PackOnSale {
  packId: string;
  coins: number;
  priceUsd: string;
}

export function BuyCoins(props: { id: string; packs: PackOnSale[]; returnTo: string; hidden?: boolean }) {
  const list = `${props.id}-packs`;
  return (
    <div id={props.id} class="buy-coins" data-buy-coins="" data-return={props.returnTo} hidden={props.hidden}>
      <button type="button" class="button secondary" aria-expanded="false" aria-controls={list} data-buy-toggle="">
        Buy coins
      </button>
      <ul id={list} class="packs" hidden>
        {props.packs.map((pack) => (
          <li>
            <button type="button" class="button primary" data-pack={pack.packId} aria-describedby={`${list}-${pack.packId}-price`}>
              {`Buy ${wholeNumberText(pack.coins)} coins`}
            </button>{' '}
            <span id={`${list}-${pack.packId}-price`} class="price">{moneyText(pack.priceUsd)}</span>
          </li>
        ))}
      </ul>
      <p class="form-error" role="alert" data-buy-error=""></p>
    </div>
  );
}
