import { CreateSchema1763780000000 } from './1763780000000-create-schema';
import { CreateLoginFailures1795316983442 } from './1795316983442-create-login-failures';
import { AddWalletHead1795400000000 } from './1795400000000-add-wallet-head';
import { DropLoginFailures1796100000000 } from './1796100000000-drop-login-failures';
import { NormaliseAccountEmails1796100000001 } from './1796100000001-normalise-account-emails';
import { BlockLedgerTruncate1796200000000 } from './1796200000000-block-ledger-truncate';
import { AddAuditLogAndModeration1796300000000 } from './1796300000000-add-audit-log-and-moderation';
import { AddBansAndAdminSearch1796500000000 } from './1796500000000-add-bans-and-admin-search';
import { AddPurchasesAndVoids1796600000000 } from './1796600000000-add-purchases-and-voids';

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
];
