import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig, threadPoolSize } from './config';

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      redisUrl: undefined,
      publicOrigin: 'http://localhost:3000',
      publicOriginIsDefault: true,
      sessionIdleTimeoutSeconds: 1800,
      seedDemo: true,
      mailTransport: 'console',
    });
    expect(config.webhooks).toMatchObject({ concurrency: 16, endpointConcurrency: 4, runnerDeadAfterSeconds: 30 });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives the public origin from PORT and accepts an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicOrigin).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://arcade.example.com/' })).toMatchObject({
      publicOrigin: 'https://arcade.example.com',
      publicOriginIsDefault: false,
    });
  });

  it('reads the read replicas as a list and keeps their passwords out of errors', () => {
    expect(loadConfig({}).databaseReadUrls).toEqual([]);
    expect(loadConfig({ DATABASE_READ_URLS: 'postgres://r1/arcade, postgresql://r2:5433/arcade' }).databaseReadUrls).toEqual([
      'postgres://r1/arcade',
      'postgresql://r2:5433/arcade',
    ]);
    expect(() => loadConfig({ DATABASE_READ_URLS: 'mysql://u:secret@r1/arcade' })).toThrow(/DATABASE_READ_URLS="mysql:\/\/u:\*\*\*@r1\/arcade"/);
  });

  it('does not seed the demo world in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('requires two-factor of admins in production unless told otherwise', () => {
    expect(loadConfig({}).adminRequire2fa).toBe(false);
    expect(loadConfig({ ADMIN_REQUIRE_2FA: 'true' }).adminRequire2fa).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE }).adminRequire2fa).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE, ADMIN_REQUIRE_2FA: 'false' }).adminRequire2fa).toBe(false);
    expect(() => loadConfig({ ADMIN_REQUIRE_2FA: 'maybe' })).toThrow(/ADMIN_REQUIRE_2FA accepts "true" or "false"/);
  });

  it('holds developer earnings 14 days and pays from $25 unless told otherwise (CONTRACT §22)', () => {
    expect(loadConfig({}).payouts).toEqual({ holdDays: 14, minimumMills: 25_000 });
    expect(loadConfig({ PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '12.5' }).payouts).toEqual({ holdDays: 0, minimumMills: 12_500 });
    expect(loadConfig({ PAYOUT_MINIMUM_USD: '0.01' }).payouts.minimumMills).toBe(10);
  });

  it('sells the default packs through the sandbox outside production', () => {
    expect(loadConfig({}).coinPacks).toEqual([10, 40, 100]);
    expect(loadConfig({ COIN_PACKS: ' 100, 5 ,40' }).coinPacks).toEqual([5, 40, 100]);
    expect(loadConfig({}).payments).toEqual({
      provider: 'sandbox',
      webhookSecret: undefined,
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      stripeApiUrl: undefined,
      sandboxProviderDelayMs: 0,
    });
    expect(loadConfig({ SANDBOX_PROVIDER_DELAY_MS: '4000' }).payments.sandboxProviderDelayMs).toBe(4000);
    expect(() => loadConfig({ SANDBOX_PROVIDER_DELAY_MS: '-1' })).toThrow(/SANDBOX_PROVIDER_DELAY_MS="-1"; SANDBOX_PROVIDER_DELAY_MS accepts an integer from 0 to 60000/);
  });

  it('reads every RATE_LIMIT_* variable as LIMIT/SECONDS (the modules declare which limits exist and their defaults)', () => {
    expect(loadConfig({}).rateLimits).toEqual({});
    expect(loadConfig({ RATE_LIMIT_PURCHASES_PER_PLAYER: '3/60', RATE_LIMIT_EXPORT_PER_ACCOUNT: '2/60' }).rateLimits).toEqual({
      RATE_LIMIT_EXPORT_PER_ACCOUNT: { limit: 2, windowMs: 60_000 },
      RATE_LIMIT_PURCHASES_PER_PLAYER: { limit: 3, windowMs: 60_000 },
    });
    expect(() => loadConfig({ RATE_LIMIT_PURCHASES_PER_PLAYER: 'lots' })).toThrow(/RATE_LIMIT_PURCHASES_PER_PLAYER/);
    expect(() => loadConfig({ RATE_LIMIT_EXPORT_PER_ACCOUNT: '0/60' })).toThrow(/RATE_LIMIT_EXPORT_PER_ACCOUNT/);
    expect(() => loadConfig({ RATE_LIMIT_SCORE_PER_SESSION: '30/86401' })).toThrow(/RATE_LIMIT_SCORE_PER_SESSION/);
  });

  it('takes payments through Stripe by default in production, and stops without its keys', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE }).payments.provider).toBe('stripe');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set: PAYMENT_PROVIDER defaults to stripe when NODE_ENV=production/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: STRIPE.STRIPE_SECRET_KEY })).toThrow(/STRIPE_WEBHOOK_SECRET must be set: PAYMENT_PROVIDER is stripe/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }).payments.provider).toBe('sandbox');
  });

  it('never echoes a payment secret, and refuses the publishable key for the secret one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_hunter2' })).toThrow(/STRIPE_SECRET_KEY="\*\*\*"; STRIPE_SECRET_KEY accepts a Stripe secret key/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_hunter2' })).not.toThrow(/hunter2/);
    expect(loadConfig({ PAYMENT_WEBHOOK_SECRET: 'short', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).payments).toMatchObject({
      webhookSecret: 'short',
      stripeSecretKey: 'sk_test_x',
      stripeWebhookSecret: 'whsec_x',
    });
  });

  it.each([
    ['PORT', 'abc', /PORT="abc"; PORT accepts an integer from 0 to 65535/],
    ['PORT', '70000', /PORT accepts an integer/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL accepts a URL \(postgres:, postgresql:\)/],
    ['REDIS_URL', 'not a url', /REDIS_URL accepts a URL/],
    ['DATABASE_READ_URLS', 'postgres://a/db,redis://b', /DATABASE_READ_URLS="redis:\/\/b"; DATABASE_READ_URLS accepts a comma-separated list of URLs/],
    ['PUBLIC_ORIGIN', 'https://a.example/path', /PUBLIC_ORIGIN accepts an origin/],
    ['SESSION_IDLE_TIMEOUT_SECONDS', '0', /SESSION_IDLE_TIMEOUT_SECONDS accepts an integer from 1/],
    ['SEED_DEMO', 'maybe', /SEED_DEMO accepts "true" or "false"/],
    ['MAIL_TRANSPORT', 'http://mail', /MAIL_TRANSPORT accepts a URL \(smtp:, smtps:\)/],
    ['PLAYER_REF_SECRET', 'short', /PLAYER_REF_SECRET accepts a secret of at least 16 characters/],
    ['RATE_LIMIT_SCORE_PER_SESSION', '10', /RATE_LIMIT_SCORE_PER_SESSION accepts "LIMIT\/SECONDS"/],
    ['TRUST_PROXY', 'everyone!', /TRUST_PROXY accepts a hop count or a comma-separated list/],
    ['RATE_LIMIT_SIGNUP_PER_ADDRESS', '0/60', /RATE_LIMIT_SIGNUP_PER_ADDRESS accepts "LIMIT\/SECONDS"/],
    ['RATE_LIMIT_MAIL_PER_ACCOUNT', 'five', /RATE_LIMIT_MAIL_PER_ACCOUNT accepts "LIMIT\/SECONDS"/],
    ['PASSWORD_HASH_CONCURRENCY', '0', /PASSWORD_HASH_CONCURRENCY accepts an integer from 1 to 64/],
    ['PASSWORD_HASH_QUEUE', '-1', /PASSWORD_HASH_QUEUE accepts an integer from 0 to 100000/],
    ['COIN_PACKS', '10,ten', /COIN_PACKS accepts a comma-separated list/],
    ['COIN_PACKS', '10,10', /COIN_PACKS accepts a comma-separated list of 1 to 12 distinct/],
    ['COIN_PACKS', '0', /COIN_PACKS accepts/],
    ['COIN_PACKS', '100001', /COIN_PACKS accepts/],
    ['PAYMENT_PROVIDER', 'paypal', /PAYMENT_PROVIDER accepts "sandbox" or "stripe"/],
    ['STRIPE_API_URL', 'ftp://x', /STRIPE_API_URL accepts a URL \(http:, https:\)/],
    ['PAYOUT_HOLD_DAYS', '366', /PAYOUT_HOLD_DAYS accepts an integer from 0 to 365/],
    ['JOB_RUNNER_DEAD_AFTER_SECONDS', '1', /JOB_RUNNER_DEAD_AFTER_SECONDS accepts an integer from 2 to 3600/],
    ['PAYOUT_MINIMUM_USD', '0', /PAYOUT_MINIMUM_USD accepts a US-dollar amount from 0.01 to 1000000 with at most two decimals/],
    ['PAYOUT_MINIMUM_USD', '25.005', /PAYOUT_MINIMUM_USD accepts a US-dollar amount/],
    ['PAYOUT_MINIMUM_USD', '-5', /PAYOUT_MINIMUM_USD accepts a US-dollar amount/],
  ])('stops on a bad %s with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('hashes passwords at OWASP\'s cost unless a test run (NODE_ENV=test) asks for PASSWORD_HASH_COST=test; production cannot', () => {
    for (const nodeEnv of [undefined, 'production', 'development']) {
      expect(loadConfig({ NODE_ENV: nodeEnv, ...STRIPE }).passwordHashing.cost).toBe('owasp');
      expect(loadConfig({ NODE_ENV: nodeEnv, ...STRIPE, PASSWORD_HASH_COST: 'owasp' }).passwordHashing.cost).toBe('owasp');
      expect(() => loadConfig({ NODE_ENV: nodeEnv, ...STRIPE, PASSWORD_HASH_COST: 'test' })).toThrow(/PASSWORD_HASH_COST accepts "owasp" \(and "test" only when NODE_ENV=test\)/);
    }
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }).passwordHashing.cost).toBe('test');
    expect(loadConfig({ NODE_ENV: 'test' }).passwordHashing.cost).toBe('owasp');
    expect(() => loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'cheap' })).toThrow(ConfigError);
  });

  it('keeps insert-coin\'s 500 ms burst window; only a test run may shorten it (INSERT_COIN_BURST_MS)', () => {
    expect(loadConfig({}).insertCoinBurstMs).toBe(500);
    expect(loadConfig({ NODE_ENV: 'test', INSERT_COIN_BURST_MS: '1' }).insertCoinBurstMs).toBe(1);
    for (const nodeEnv of [undefined, 'production', 'development']) {
      expect(() => loadConfig({ NODE_ENV: nodeEnv, ...STRIPE, INSERT_COIN_BURST_MS: '1' })).toThrow(/INSERT_COIN_BURST_MS accepts nothing outside NODE_ENV=test/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', INSERT_COIN_BURST_MS: '600' })).toThrow(/INSERT_COIN_BURST_MS accepts an integer from 1 to 500/);
  });

  it('trusts only loopback proxies unless told which hops set X-Forwarded-For', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, uniquelocal' }).trustProxy).toBe('loopback, uniquelocal');
  });

  it('never echoes a password from a URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).toThrow(/\*\*\*/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  it('has the hashing defaults, and sizes the thread pool to the hashes plus libuv\'s 4', () => {
    const config = loadConfig({});
    expect(config.passwordHashing).toEqual({ concurrency: Math.max(1, Math.floor(availableParallelism() / 2)), queueLimit: 100, cost: 'owasp' });
    expect(threadPoolSize({ PASSWORD_HASH_CONCURRENCY: '3' })).toBe(7);
    // a bad value is loadConfig's to report; the pool still gets a size
    expect(threadPoolSize({ PASSWORD_HASH_CONCURRENCY: 'many' })).toBe(5);
  });

  it('reads the operating variables (CONTRACT §23): metrics off without a token, the books check hourly (off in a test run), traces only with an endpoint', () => {
    expect(loadConfig({}).observability).toEqual({ metricsToken: undefined, invariantCheckIntervalSeconds: 3600, otlpEndpoint: undefined });
    expect(loadConfig({ NODE_ENV: 'test' }).observability.invariantCheckIntervalSeconds).toBe(0);
    const set = loadConfig({ METRICS_TOKEN: 'a-token-of-16-chars!', INVARIANT_CHECK_INTERVAL_SECONDS: '600', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' });
    expect(set.observability).toEqual({ metricsToken: 'a-token-of-16-chars!', invariantCheckIntervalSeconds: 600, otlpEndpoint: 'http://collector:4318' });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, long' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).not.toThrow(/short/);
    expect(() => loadConfig({ INVARIANT_CHECK_INTERVAL_SECONDS: '-1' })).toThrow(/INVARIANT_CHECK_INTERVAL_SECONDS/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
