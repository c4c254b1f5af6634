import { Module } from '@nestjs/common';
import { CatalogueController } from './catalogue.controller';
import { CatalogueQuery } from './catalogue.query';
import { CatalogueService } from './catalogue.service';

/** The public catalogue of published games. */
@Module({ controllers: [CatalogueController], providers: [CatalogueQuery, CatalogueService], exports: [CatalogueService] })
export class CatalogueModule {}
