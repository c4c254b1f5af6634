/** The account-data module's public entry (a person's data export and account erasure, CONTRACT §20). */
export { AccountDataModule } from './account-data.module';
