/**
 * `/checkout/{purchaseId}` (CONTRACT §17.1, §19): the pack and its price; with the sandbox, "Card
 * number" and "Pay" (the form calls the sandbox's pay endpoint and the page reloads with the
 * outcome); then "Payment received" or "Payment declined" and "Continue" to the return path.
 */
import { ApiForm, Submit, TextField } from '../../http/pages/components';
import { Layout, Viewer } from '../../http/pages/layout';
import { moneyText, wholeNumberText } from '../../http/pages/formats';
import { MILLS_PER_COIN, millsToUsd } from '../wallet';
import type { PaymentProviderName } from './payment-provider';
import type { PurchaseView } from './purchases.service';

const SETTLED = new Set(['paid', 'refunded', 'disputed']);

export function CheckoutPage(props: { viewer: Viewer; purchase: PurchaseView; provider: PaymentProviderName; back: string; path: string }) {
  const { purchase } = props;
  const settled = SETTLED.has(purchase.status);
  // No address yet: the checkout is still opening at the provider, or could not be opened (CONTRACT §19.1).
  const opened = purchase.checkoutUrl !== null;
  const payable = props.provider === 'sandbox' && !settled && opened;
  const failed = purchase.status === 'failed';
  const outcome = settled ? 'Payment received' : failed ? (opened ? 'Payment declined' : 'Checkout not opened') : opened ? null : 'Opening the checkout';
  const detail = settled
    ? `${wholeNumberText(purchase.coins)} coins were added to your wallet.`
    : failed
      ? opened
        ? 'Nothing was charged and your balance is unchanged.'
        : 'The payment provider did not answer in time. Nothing was charged and your balance is unchanged: buy again.'
      : opened
        ? 'Waiting for the payment provider to confirm the payment: reload this page in a moment.'
        : 'The payment provider is opening the checkout: reload this page in a moment.';
  return (
    <Layout title="Checkout" viewer={props.viewer} page="checkout" section="me" path={props.path}>
      <h1>Buy coins</h1>
      <section class="panel narrow" aria-labelledby="pack-heading">
        <h2 id="pack-heading">{`${wholeNumberText(purchase.coins)} coins`}</h2>
        <p>
          Price: <strong data-testid="price">{moneyText(purchase.priceUsd)}</strong> (US dollars, {moneyText(millsToUsd(MILLS_PER_COIN))} a coin)
        </p>
      </section>
      {outcome || !payable ? (
        <section class="panel narrow" aria-labelledby="outcome-heading" data-testid="outcome">
          <h2 id="outcome-heading">{outcome ?? 'Payment pending'}</h2>
          <p>{detail}</p>
          <p>
            <a class="button primary" href={props.back}>
              Continue
            </a>
          </p>
        </section>
      ) : null}
      {payable ? (
        <div class="panel narrow">
          <ApiForm method="POST" action={`/api/sandbox/purchases/${purchase.purchaseId}/pay`} labelledBy="pay-heading" after="reload">
            <h2 id="pay-heading">{outcome ? 'Try another card' : 'Pay by card'}</h2>
            <TextField
              id="card-number"
              label="Card number"
              name="cardNumber"
              autocomplete="off"
              required
              hint="Sandbox, no real money: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined."
            />
            <Submit>Pay</Submit>
          </ApiForm>
          {outcome ? null : (
            <p>
              <a href={props.back}>Back without paying</a>
            </p>
          )}
        </div>
      ) : null}
    </Layout>
  );
}
