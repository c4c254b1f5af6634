/** The catalogue module's public entry (the public catalogue): other modules import only what is here (docs/architecture.md). */
export { CatalogueModule } from './catalogue.module';
export { CatalogueService } from './catalogue.service';
export type { CatalogueGame } from './catalogue.service';
export { CATALOGUE_QUERY_MAX_LENGTH } from './catalogue.dto';
