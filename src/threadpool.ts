/**
 * Sizes libuv's thread pool on purpose, before anything uses it: imported first by main.ts (libuv
 * reads UV_THREADPOOL_SIZE once, when the pool first starts). Password hashes run on the pool, at
 * most PASSWORD_HASH_CONCURRENCY at a time; the pool gets that many threads plus libuv's default 4
 * for the rest (the database driver's SCRAM handshake and DNS lookups, file reads, zlib), so hashing
 * can never take the threads the database needs. An UV_THREADPOOL_SIZE set by the operator wins.
 */
import { threadPoolSize } from './config';

process.env.UV_THREADPOOL_SIZE ??= String(threadPoolSize(process.env));
