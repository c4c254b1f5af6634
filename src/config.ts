import { availableParallelism } from 'node:os';

/**
 * The service's configuration: every environment variable is read here, once, into a frozen,
 * typed object. A bad value stops start-up with a message naming the variable.
 */
export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

export interface Config {
  nodeEnv: string;
  port: number;
  /** Unset: an embedded PostgreSQL under `dataDir/postgres`. */
  databaseUrl: string | undefined;
  /**
   * The schema owner, for migrations and the application role's grants; the service then connects
   * with `databaseUrl` as a role that only reads and writes rows. Unset: `databaseUrl` does both.
   */
  databaseOwnerUrl: string | undefined;
  /** Read replicas for public reads that tolerate lag (DATABASE_READ_URLS); empty: the primary serves all. */
  databaseReadUrls: readonly string[];
  redisUrl: string | undefined;
  /** The origin players' browsers see, without a trailing slash. */
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not set: loopback origins on PORT are all accepted. */
  publicOriginIsDefault: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** ADMIN_REQUIRE_2FA: an admin without two-factor gets 403 TWO_FACTOR_REQUIRED from the admin API and page (CONTRACT §20). */
  adminRequire2fa: boolean;
  playerRefSecret: string | undefined;
  sessionIdleTimeoutSeconds: number;
  seedDemo: boolean;
  /** `console`, or an smtp:// / smtps:// URL. */
  mailTransport: string;
  dataDir: string;
  logLevel: string;
  /** Milliseconds a statement may run before PostgreSQL cancels it. */
  dbStatementTimeoutMs: number;
  /** Milliseconds a request may wait for a pool connection. */
  dbAcquireTimeoutMs: number;
  dbPoolSize: number;
  /** Idempotency keys are kept this many days (CONTRACT §7: at least 7), then purged. */
  idempotencyRetentionDays: number;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (the client address behind a load balancer). */
  trustProxy: string | number;
  /**
   * Every `RATE_LIMIT_*` variable that is set, parsed ("LIMIT/SECONDS"), by variable name. The
   * modules declare their limits with the variable and default (`configured()` in
   * src/registry/declarations.ts); an unset variable leaves the default.
   */
  rateLimits: Readonly<Record<string, RateLimitRule>>;
  /**
   * Spec §8's 1 insert-coin attempt per 500 ms per play session. Fixed: only a test run
   * (NODE_ENV=test) may shorten it (INSERT_COIN_BURST_MS), for tests that drive a service in a
   * child process, whose rate-limit clock they cannot move.
   */
  insertCoinBurstMs: number;
  /**
   * Password hashes computed at once (each holds a libuv thread) and waiting at most in each lane, logins and sign-ups (then 503);
   * `cost`: `owasp` (argon2id at OWASP's minimum) everywhere but in tests, which may ask for
   * `test` (PASSWORD_HASH_COST=test, refused unless NODE_ENV=test).
   */
  passwordHashing: { concurrency: number; queueLimit: number; cost: PasswordHashCost };
  /** Coins per pack on sale (COIN_PACKS), ascending, distinct (CONTRACT §19). */
  coinPacks: readonly number[];
  payments: PaymentsConfig;
  payouts: PayoutsConfig;
  webhooks: WebhooksConfig;
  observability: ObservabilityConfig;
}

/** Operating the service (CONTRACT §23): metrics, the periodic books check, traces. */
export interface ObservabilityConfig {
  /**
   * METRICS_TOKEN: `GET /metrics` answers only `Authorization: Bearer <token>` (at least 16
   * characters). Unset: metrics are off (404, and nothing of them on the request path).
   */
  metricsToken: string | undefined;
  /** INVARIANT_CHECK_INTERVAL_SECONDS: the books' checks every this many seconds, on one instance at a time (default 3600; 0: off, the default of a test run). */
  invariantCheckIntervalSeconds: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: traces exported over OTLP/HTTP there (read again by src/tracing.ts before the app loads). */
  otlpEndpoint: string | undefined;
}

/** Developer payouts (CONTRACT §22). */
export interface PayoutsConfig {
  /** PAYOUT_HOLD_DAYS: earnings of the last this many days are held (time for voids and disputes). */
  holdDays: number;
  /** PAYOUT_MINIMUM_USD in mills (whole cents): no payout below it. */
  minimumMills: number;
}

/** Developer webhooks (CONTRACT §21). */
export interface WebhooksConfig {
  /**
   * WEBHOOK_ALLOW_PRIVATE=true (development and tests only): endpoints may use http: and private,
   * loopback or link-local addresses. Unset: refused at creation (literals) and at each attempt (names).
   */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: seconds before each retry, the last repeated; default 5,30,120,600,3600,21600,43200. */
  retrySchedule: readonly number[];
  /** WEBHOOK_CONCURRENCY: attempts one instance makes at once (default 16); WEBHOOK_ENDPOINT_CONCURRENCY per endpoint (default 4). */
  concurrency: number;
  endpointConcurrency: number;
  /**
   * JOB_RUNNER_DEAD_AFTER_SECONDS (default 30, 2 to 3600): an instance whose job runner has not
   * been seen for this long is dead; a survivor force-unlocks the jobs it held (docs/webhooks.md).
   */
  runnerDeadAfterSeconds: number;
}

/** CONTRACT §21: about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, then every 12 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = [5, 30, 120, 600, 3600, 21600, 43200];

function webhookRetrySchedule(env: Env): number[] {
  const raw = str(env, 'WEBHOOK_RETRY_SCHEDULE');
  if (raw === undefined) return [...DEFAULT_WEBHOOK_RETRY_SCHEDULE];
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 100 || parts.some((part) => !/^\d{1,6}$/.test(part) || Number(part) < 1)) {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', 'seconds between retries, comma-separated, each from 1 to 999999 (e.g. 5,30,120)', raw);
  }
  return parts.map(Number);
}

export type PasswordHashCost = 'owasp' | 'test';

export type PaymentProviderName = 'sandbox' | 'stripe';

export interface PaymentsConfig {
  provider: PaymentProviderName;
  /** Signing key of sandbox events; unset: generated once and kept in app_settings. */
  webhookSecret: string | undefined;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Where the Stripe API is reached (a local stand-in in tests); unset: Stripe itself. */
  stripeApiUrl: string | undefined;
  /** SANDBOX_PROVIDER_DELAY_MS: the sandbox takes this long to open each checkout (a slow provider rehearsed, CONTRACT §19.1). */
  sandboxProviderDelayMs: number;
}

export class ConfigError extends Error {
  constructor(variable: string, accepts: string, value: string, message?: string) {
    super(message ?? `Invalid configuration: ${variable}=${JSON.stringify(value)}; ${variable} accepts ${accepts}.`);
    this.name = 'ConfigError';
  }

  /** A variable that must be set in this configuration. */
  static missing(variables: string[], why: string): ConfigError {
    return new ConfigError(variables.join(', '), '', '', `Invalid configuration: ${variables.join(' and ')} must be set: ${why}.`);
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(name, '"true" or "false"', raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, redactUrl(raw));
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, redactUrl(raw));
  }
  return raw;
}

/** A comma-separated list of URLs, each checked like `url()`. */
function urlList(env: Env, name: string, protocols: string[]): string[] {
  const raw = str(env, name);
  if (raw === undefined) return [];
  return raw.split(',').map((item) => {
    const value = item.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !protocols.includes(parsed.protocol)) {
      throw new ConfigError(name, `a comma-separated list of URLs (${protocols.join(', ')})`, redactUrl(value));
    }
    return value;
  });
}

/** "limit/seconds", e.g. "30/60" for 30 requests a minute. */
function rule(name: string, raw: string): RateLimitRule {
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1 || Number(match[2]) > 86400) {
    throw new ConfigError(name, '"LIMIT/SECONDS" such as "30/60" (both at least 1)', raw);
  }
  return { limit: Number(match[1]), windowMs: Number(match[2]) * 1000 };
}

/**
 * PASSWORD_HASH_COST: `owasp` (the default), or `test`, a cheap argon2id that only a test run may
 * use (NODE_ENV=test): production can never be configured below OWASP's minimum.
 */
function passwordHashCost(env: Env, nodeEnv: string): PasswordHashCost {
  const raw = str(env, 'PASSWORD_HASH_COST') ?? 'owasp';
  if (raw === 'owasp') return raw;
  if (raw === 'test' && nodeEnv === 'test') return raw;
  throw new ConfigError('PASSWORD_HASH_COST', raw === 'test' ? '"owasp" (and "test" only when NODE_ENV=test)' : '"owasp" (or "test" when NODE_ENV=test)', raw);
}

/** Every RATE_LIMIT_* variable set, parsed: which of them name a limit is the modules' to say. */
function rateLimitRules(env: Env): Record<string, RateLimitRule> {
  const rules: Record<string, RateLimitRule> = {};
  for (const name of Object.keys(env).filter((key) => key.startsWith('RATE_LIMIT_')).sort()) {
    const raw = str(env, name);
    if (raw !== undefined) rules[name] = rule(name, raw);
  }
  return rules;
}

/** INSERT_COIN_BURST_MS: test runs only (see Config.insertCoinBurstMs); 500 ms otherwise, always. */
function insertCoinBurstMs(env: Env, nodeEnv: string): number {
  const raw = str(env, 'INSERT_COIN_BURST_MS');
  if (raw === undefined) return 500;
  if (nodeEnv !== 'test') throw new ConfigError('INSERT_COIN_BURST_MS', 'nothing outside NODE_ENV=test (spec §8 fixes 1 insert-coin per 500 ms)', raw);
  return int(env, 'INSERT_COIN_BURST_MS', 500, 1, 500);
}

/** Default: half the cores (at least one), so hashing never takes every core from the requests. */
function passwordHashConcurrency(env: Env): number {
  return int(env, 'PASSWORD_HASH_CONCURRENCY', Math.max(1, Math.floor(availableParallelism() / 2)), 1, 64);
}

/**
 * Threads in libuv's pool (`UV_THREADPOOL_SIZE`): the password hashes running at once plus libuv's
 * default 4 for everything else that uses the pool (the database driver's SCRAM handshake and DNS
 * lookups, file reads, zlib). Read by src/threadpool.ts before the pool starts; never throws (a bad
 * PASSWORD_HASH_CONCURRENCY is reported by loadConfig()).
 */
export function threadPoolSize(env: Env = process.env): number {
  let concurrency: number;
  try {
    concurrency = passwordHashConcurrency(env);
  } catch {
    concurrency = 1;
  }
  return concurrency + 4;
}

/** A hop count ("1") or a list of addresses, subnets or express names ("loopback, uniquelocal"). */
function trustProxy(env: Env): string | number {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return 'loopback';
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  if (!/^[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*$/.test(raw)) {
    throw new ConfigError('TRUST_PROXY', 'a hop count or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal', raw);
  }
  return raw;
}

/** "10,40,100": distinct whole numbers of coins, 1 to 100000 each, at most 12 packs. */
function coinPacks(env: Env): number[] {
  const raw = str(env, 'COIN_PACKS');
  if (raw === undefined) return [10, 40, 100];
  const parts = raw.split(',').map((part) => part.trim());
  const accepts = 'a comma-separated list of 1 to 12 distinct whole numbers of coins from 1 to 100000, such as "10,40,100"';
  if (parts.length > 12 || parts.some((part) => !/^\d{1,6}$/.test(part) || Number(part) < 1 || Number(part) > 100000)) {
    throw new ConfigError('COIN_PACKS', accepts, raw);
  }
  const packs = parts.map(Number).sort((a, b) => a - b);
  if (new Set(packs).size !== packs.length) throw new ConfigError('COIN_PACKS', accepts, raw);
  return packs;
}

/**
 * PAYMENT_PROVIDER and its secrets (CONTRACT §19). Stripe needs both of its keys: without them
 * start-up stops, whatever NODE_ENV, since no purchase could be paid or confirmed.
 */
function payments(env: Env, nodeEnv: string): PaymentsConfig {
  const raw = str(env, 'PAYMENT_PROVIDER') ?? (nodeEnv === 'production' ? 'stripe' : 'sandbox');
  if (raw !== 'sandbox' && raw !== 'stripe') throw new ConfigError('PAYMENT_PROVIDER', '"sandbox" or "stripe"', raw);
  // A short sandbox key is the operator's choice (the sandbox takes no money); start-up warns about it.
  const webhookSecret = str(env, 'PAYMENT_WEBHOOK_SECRET');
  const stripeSecretKey = str(env, 'STRIPE_SECRET_KEY');
  const stripeWebhookSecret = str(env, 'STRIPE_WEBHOOK_SECRET');
  // The publishable key is the usual mix-up: it can create nothing.
  if (stripeSecretKey !== undefined && /^pk_/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'a Stripe secret key (sk_live_..., sk_test_... or a restricted rk_... key), not the publishable pk_... key', '***');
  }
  if (raw === 'stripe') {
    const missing: string[] = [];
    if (stripeSecretKey === undefined) missing.push('STRIPE_SECRET_KEY');
    if (stripeWebhookSecret === undefined) missing.push('STRIPE_WEBHOOK_SECRET');
    if (missing.length > 0) {
      const why = str(env, 'PAYMENT_PROVIDER') === undefined ? 'PAYMENT_PROVIDER defaults to stripe when NODE_ENV=production' : 'PAYMENT_PROVIDER is stripe';
      throw ConfigError.missing(missing, `${why}, and Stripe can neither take nor confirm a payment without its secret key and webhook signing secret (PAYMENT_PROVIDER=sandbox takes no real money)`);
    }
  }
  return {
    provider: raw,
    webhookSecret,
    stripeSecretKey,
    stripeWebhookSecret,
    stripeApiUrl: url(env, 'STRIPE_API_URL', ['http:', 'https:']),
    sandboxProviderDelayMs: int(env, 'SANDBOX_PROVIDER_DELAY_MS', 0, 0, 60_000),
  };
}

/** PAYOUT_HOLD_DAYS (0 to 365, default 14) and PAYOUT_MINIMUM_USD (dollars and at most two decimals, 0.01 to 1,000,000, default 25). */
function payouts(env: Env): PayoutsConfig {
  const raw = str(env, 'PAYOUT_MINIMUM_USD');
  let minimumMills = 25_000;
  if (raw !== undefined) {
    const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(raw);
    minimumMills = match ? Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(2, '0')) * 10 : NaN;
    if (!(minimumMills >= 10 && minimumMills <= 1_000_000_000)) {
      throw new ConfigError('PAYOUT_MINIMUM_USD', 'a US-dollar amount from 0.01 to 1000000 with at most two decimals, such as "25" or "12.50"', raw);
    }
  }
  return { holdDays: int(env, 'PAYOUT_HOLD_DAYS', 14, 0, 365), minimumMills };
}

/** METRICS_TOKEN: 16 to 256 visible ASCII characters (it travels in an Authorization header). */
function metricsToken(env: Env): string | undefined {
  const raw = str(env, 'METRICS_TOKEN');
  if (raw !== undefined && !/^[\x21-\x7E]{16,256}$/.test(raw)) throw new ConfigError('METRICS_TOKEN', 'a token of 16 to 256 visible ASCII characters (no spaces)', '***');
  return raw;
}

/** Keeps user and password of a URL out of error messages and logs. */
export function redactUrl(raw: string): string {
  try {
    const parsed = new URL(raw);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  const port = int(env, 'PORT', 3000, 0, 65535);
  const explicitOrigin = url(env, 'PUBLIC_ORIGIN', ['http:', 'https:']);
  let publicOrigin = `http://localhost:${port}`;
  if (explicitOrigin !== undefined) {
    const parsed = new URL(explicitOrigin);
    if (parsed.pathname !== '/' || parsed.search || parsed.hash || parsed.username) {
      throw new ConfigError('PUBLIC_ORIGIN', 'an origin such as https://arcade.example.com (no path)', explicitOrigin);
    }
    publicOrigin = parsed.origin;
  }
  const adminEmail = str(env, 'ADMIN_EMAIL');
  const adminPassword = str(env, 'ADMIN_PASSWORD');
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError('ADMIN_EMAIL', 'an e-mail address', adminEmail);
  }
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 128)) {
    throw new ConfigError('ADMIN_PASSWORD', 'a password of 8 to 128 characters', '***');
  }
  const playerRefSecret = str(env, 'PLAYER_REF_SECRET');
  if (playerRefSecret !== undefined && playerRefSecret.length < 16) {
    throw new ConfigError('PLAYER_REF_SECRET', 'a secret of at least 16 characters', '***');
  }
  const mailTransport = str(env, 'MAIL_TRANSPORT') ?? 'console';
  if (mailTransport !== 'console') url(env, 'MAIL_TRANSPORT', ['smtp:', 'smtps:']);

  const config: Config = {
    nodeEnv,
    port,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseOwnerUrl: url(env, 'DATABASE_OWNER_URL', ['postgres:', 'postgresql:']),
    databaseReadUrls: Object.freeze(urlList(env, 'DATABASE_READ_URLS', ['postgres:', 'postgresql:'])),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    publicOrigin,
    publicOriginIsDefault: explicitOrigin === undefined,
    adminEmail,
    adminPassword,
    adminRequire2fa: bool(env, 'ADMIN_REQUIRE_2FA', nodeEnv === 'production'),
    playerRefSecret,
    sessionIdleTimeoutSeconds: int(env, 'SESSION_IDLE_TIMEOUT_SECONDS', 1800, 1, 86400),
    seedDemo: bool(env, 'SEED_DEMO', nodeEnv !== 'production'),
    mailTransport,
    dataDir: str(env, 'DATA_DIR') ?? '.data',
    logLevel: str(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'warn' : 'info'),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 100, 10000),
    dbAcquireTimeoutMs: int(env, 'DB_ACQUIRE_TIMEOUT_MS', 3000, 100, 10000),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 20, 1, 500),
    trustProxy: trustProxy(env),
    idempotencyRetentionDays: int(env, 'IDEMPOTENCY_RETENTION_DAYS', 30, 7, 3650),
    rateLimits: Object.freeze(rateLimitRules(env)),
    insertCoinBurstMs: insertCoinBurstMs(env, nodeEnv),
    passwordHashing: {
      concurrency: passwordHashConcurrency(env),
      queueLimit: int(env, 'PASSWORD_HASH_QUEUE', 100, 0, 100_000),
      cost: passwordHashCost(env, nodeEnv),
    },
    coinPacks: Object.freeze(coinPacks(env)),
    payments: Object.freeze(payments(env, nodeEnv)),
    payouts: Object.freeze(payouts(env)),
    webhooks: Object.freeze({
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      retrySchedule: Object.freeze(webhookRetrySchedule(env)),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 16, 1, 200),
      endpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 50),
      runnerDeadAfterSeconds: int(env, 'JOB_RUNNER_DEAD_AFTER_SECONDS', 30, 2, 3600),
    }),
    observability: Object.freeze({
      metricsToken: metricsToken(env),
      invariantCheckIntervalSeconds: int(env, 'INVARIANT_CHECK_INTERVAL_SECONDS', nodeEnv === 'test' ? 0 : 3600, 0, 604_800),
      otlpEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
    }),
  };
  if (config.databaseOwnerUrl !== undefined && config.databaseUrl === undefined) {
    throw new ConfigError('DATABASE_OWNER_URL', 'a URL only together with DATABASE_URL (the embedded PostgreSQL manages both roles itself)', redactUrl(config.databaseOwnerUrl));
  }
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(config.logLevel)) throw new ConfigError('LOG_LEVEL', levels.join(', '), config.logLevel);
  return Object.freeze({ ...config, passwordHashing: Object.freeze(config.passwordHashing) });
}

/** Nest injection token for the Config object. */
export const CONFIG = Symbol('CONFIG');
