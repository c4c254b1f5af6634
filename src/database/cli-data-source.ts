import { loadConfig } from '../config';
import { createDataSource } from './data-source';

/**
 * The project's data source for the TypeORM CLI (`npm run migration:generate -- <verb-noun>`,
 * `npm run migration:run`): the service's own entities, migrations and settings, on DATABASE_URL.
 */
const config = loadConfig();
if (!config.databaseUrl) {
  throw new Error('DATABASE_URL is required: the database the TypeORM CLI compares with the entities or migrates.');
}

export default createDataSource(config.databaseUrl, config);
