/** The wallet module's public entry (wallets, the append-only ledger and developer earnings): other modules import only what is here (docs/architecture.md). */
export { WalletModule } from './wallet.module';
export { WalletService } from './wallet.service';
export { earningsExport, forfeitWallet, walletExport } from './account-data';
export type { EarningExport, WalletExport } from './account-data';
export type { DailyEarnings, EarningsReport, LedgerEntryView, WalletPage } from './wallet.service';
export { CHAIN_BREAKS_SQL, findChainBreaks } from './hash-chains';
export { appendToDeveloperLedger, DEVELOPER_LEDGER_SHARDS, DEVELOPER_LEVEL_SHARD, developerShardSql, lockDeveloperHeads } from './ledger-append';
export { developerFunds, heldEarningsMills } from './developer-funds';
export type { DeveloperFunds } from './developer-funds';
export type { ChainBreak, ChainReader } from './hash-chains';
export { MILLS_PER_COIN, millsToUsd, usdToMills } from './money';
export { WalletFrozenError, WalletNotFoundError } from './wallet.errors';
