import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './unit-of-work';

/**
 * Provides the DataSource (created, migrated and owned by createApp) and the unit of work to
 * every module.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource) {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }, UnitOfWork],
      exports: [DataSource, UnitOfWork],
    };
  }
}
