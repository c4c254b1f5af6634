/** The payments module's public entry (coin packs, purchases and the payment provider): other modules import only what is here (docs/architecture.md). */
export { PaymentsModule } from './payments.module';
export { PurchasesService } from './purchases.service';
export { BuyCoins } from './buy-coins';
export type { PackOnSale } from './buy-coins';
export { coinPacksOf, packView } from './coin-packs';
export { PAYMENT_WEBHOOK_PATH } from './payment-webhooks.controller';
export { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from './sandbox-signature';
export { purchasesExport } from './account-data';
export type { PurchaseExport } from './account-data';
