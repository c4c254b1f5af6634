/** The catalogue module's public entry (the public catalogue): other modules import only what is here (docs/architecture.md). */
export { CatalogueModule } from './catalogue.module';
