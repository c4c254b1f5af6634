import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type ApiKeyKind = 'live' | 'test';

/** A developer's API key, stored as the SHA-256 hash of the secret; the prefix is shown to tell keys apart. */
@Entity('api_keys')
@Unique('api_keys_key_hash_key', ['keyHash'])
@Check('api_keys_kind', "kind IN ('live', 'test')")
// (developer_id, created_at DESC): TypeORM compares name and columns, not their order.
@Index('api_keys_developer_idx', ['developerId', 'createdAt'])
export class ApiKey {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'api_keys_pkey' })
  id!: string;

  @Column('uuid', { name: 'developer_id' })
  @ForeignKey('developers', { name: 'api_keys_developer_id_fkey' })
  developerId!: string;

  @Column('text')
  kind!: ApiKeyKind;

  @Column('text')
  name!: string;

  @Column('text')
  prefix!: string;

  @Column('bytea', { name: 'key_hash' })
  keyHash!: Buffer;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
