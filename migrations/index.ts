import { CreateSchema1763780000000 } from './1763780000000-create-schema';

/** Every migration, in order. Listed here (not globbed) so source and compiled builds agree. */
export const MIGRATIONS = [CreateSchema1763780000000];
