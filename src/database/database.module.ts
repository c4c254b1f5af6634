import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseConnectivity } from './connectivity';
import { DomainEvents } from './domain-events';
import { DatabaseNotifications } from './notifications';
import { UnitOfWork } from './unit-of-work';

/**
 * TypeORM's module on the DataSource that createApp created, migrated and owns (so that
 * `TypeOrmModule.forFeature` and `@InjectRepository` work in the feature modules), the unit of
 * work, the after-commit events and the cache invalidations shared by instances, for every module.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource, connectivity: DatabaseConnectivity): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSource.options,
          dataSourceFactory: async () => dataSource,
        }),
      ],
      providers: [{ provide: DatabaseConnectivity, useValue: connectivity }, UnitOfWork, DomainEvents, DatabaseNotifications],
      exports: [DatabaseConnectivity, UnitOfWork, DomainEvents, DatabaseNotifications],
    };
  }
}
