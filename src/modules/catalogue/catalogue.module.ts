import { Module } from '@nestjs/common';
import { CatalogueController } from './catalogue.controller';
import { CatalogueRepository } from './catalogue.repository';
import { CatalogueService } from './catalogue.service';

/** The public catalogue of published games. */
@Module({ controllers: [CatalogueController], providers: [CatalogueRepository, CatalogueService] })
export class CatalogueModule {}
