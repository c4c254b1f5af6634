import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One instance's job runner (docs/webhooks.md, "Crashes"): the graphile-worker pool ids its jobs
 * are locked with and its last heartbeat. Written and reaped by job-runners.repository.ts only.
 */
@Entity('job_runners')
export class JobRunner {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'job_runners_pkey' })
  id!: string;

  @Column('text', { name: 'worker_ids', array: true })
  workerIds!: string[];

  @Column('timestamptz', { name: 'started_at', default: () => 'now()' })
  startedAt!: Date;

  @Column('timestamptz', { name: 'seen_at', default: () => 'now()' })
  seenAt!: Date;
}
