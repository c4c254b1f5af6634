import { CreateSchema1763780000000 } from './1763780000000-create-schema';
import { CreateLoginFailures1795316983442 } from './1795316983442-create-login-failures';
import { AddWalletHead1795400000000 } from './1795400000000-add-wallet-head';
import { DropLoginFailures1796100000000 } from './1796100000000-drop-login-failures';
import { NormaliseAccountEmails1796100000001 } from './1796100000001-normalise-account-emails';
import { BlockLedgerTruncate1796200000000 } from './1796200000000-block-ledger-truncate';
import { AddAuditLogAndModeration1796300000000 } from './1796300000000-add-audit-log-and-moderation';
import { AddBansAndAdminSearch1796500000000 } from './1796500000000-add-bans-and-admin-search';
import { AddPurchasesAndVoids1796600000000 } from './1796600000000-add-purchases-and-voids';
import { OpenCheckoutsOutsideTransactions1796700000000 } from './1796700000000-open-checkouts-outside-transactions';
import { CheckPaymentAmounts1796710000000 } from './1796710000000-check-payment-amounts';
import { ExcludeVoidedScores1796720000000 } from './1796720000000-exclude-voided-scores';
import { GuardBalancesAndEarnings1796730000000 } from './1796730000000-guard-balances-and-earnings';
import { FoldAccountEmails1796740000000 } from './1796740000000-fold-account-emails';
import { AddPlayerBestIndex1796810000000 } from './1796810000000-add-player-best-index';
import { AddGameFace1796820000000 } from './1796820000000-add-game-face';
import { AddLoginSessionDevices1796840000000 } from './1796840000000-add-login-session-devices';
import { AddPasswordResetTokens1796850000000 } from './1796850000000-add-password-reset-tokens';
import { AddEmailChangeTokens1796860000000 } from './1796860000000-add-email-change-tokens';
import { AddTwoFactor1796870000000 } from './1796870000000-add-two-factor';
import { AddAccountErasure1796880000000 } from './1796880000000-add-account-erasure';
import { ChainLedgerEntries1796890000000 } from './1796890000000-chain-ledger-entries';
import { AddDeveloperLedger1796900000000 } from './1796900000000-add-developer-ledger';
import { AddPayouts1796910000000 } from './1796910000000-add-payouts';
import { AddWebhooks1797000000000 } from './1797000000000-add-webhooks';
import { AddJobRunners1797010000000 } from './1797010000000-add-job-runners';
import { AddWebhookPendingIndex1797100000000 } from './1797100000000-add-webhook-pending-index';

/** Every migration, in order. Listed here (not globbed) so source and compiled builds agree. */
export const MIGRATIONS = [
  CreateSchema1763780000000,
  CreateLoginFailures1795316983442,
  AddWalletHead1795400000000,
  DropLoginFailures1796100000000,
  NormaliseAccountEmails1796100000001,
  BlockLedgerTruncate1796200000000,
  AddAuditLogAndModeration1796300000000,
  AddBansAndAdminSearch1796500000000,
  AddPurchasesAndVoids1796600000000,
  OpenCheckoutsOutsideTransactions1796700000000,
  CheckPaymentAmounts1796710000000,
  ExcludeVoidedScores1796720000000,
  GuardBalancesAndEarnings1796730000000,
  FoldAccountEmails1796740000000,
  AddPlayerBestIndex1796810000000,
  AddGameFace1796820000000,
  AddLoginSessionDevices1796840000000,
  AddPasswordResetTokens1796850000000,
  AddEmailChangeTokens1796860000000,
  AddTwoFactor1796870000000,
  AddAccountErasure1796880000000,
  ChainLedgerEntries1796890000000,
  AddDeveloperLedger1796900000000,
  AddPayouts1796910000000,
  AddWebhooks1797000000000,
  AddJobRunners1797010000000,
  AddWebhookPendingIndex1797100000000,
];
