/** Per-client limits: requests per window (on Redis, every instance shares the count), streams open at once. */
import { loadPackage } from '../runtime/load-package';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config/config';
import { parseDuration } from '../config/duration';
import type { RateLimitOptions } from '../decorators/rate-limit';
import { logging } from '../logging/logger';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import { principalName } from '../security/security-context';
import { StreamCounts } from '../streaming/stream-counts';
import { clientAddressOf, proxySettings } from './client-address';
import { FailedAuthentications } from './failed-authentications';
import { headersOf, policyOf, secondsUntil, tooMany } from './limit-answers';
import { ContextKey } from '../context/context-key';
import { unref } from '../runtime/timers';

const log = logging.getLogger('rxrest.limits');

type RateLimitSettings = ReturnType<typeof rateLimitSettings>;

export function rateLimitSettings(config: Config) {
  return {
    requests: config.get('framework.http.rate-limit.requests'),
    windowMs: config.get('framework.http.rate-limit.window'),
    streams: config.get('framework.http.rate-limit.streams'),
    backend: config.get('framework.http.rate-limit.backend'),
    redisUrl: config.get('framework.http.rate-limit.redis.url'),
    proxy: proxySettings(config),
    /** Refused credentials an address may send per window; 0: not counted. */
    failures: config.get('framework.http.rate-limit.failed-authentications'),
    failuresWindowMs: config.get('framework.http.rate-limit.failed-authentications-window'),
  };
}

const RATE_HEADERS = new ContextKey<Record<string, string>>('rate-limit-headers');

function windowOf(options: RateLimitOptions, fallbackMs: number, where: string): number {
  const value = options.window;
  const ms = value === undefined ? fallbackMs : typeof value === 'number' ? value : parseDuration(value);
  if (ms === undefined || ms < 1000)
    throw new Error(`${where}: @RateLimit window must be at least one second, got ${String(value)}`);
  return ms;
}

/** One request counter per declaration, Redis shared by all of them. */
export class RateLimiters {
  readonly #settings: RateLimitSettings;
  #redis: Redis | undefined;
  #connecting: Promise<void> | undefined;
  /** Whether any endpoint is limited (answers then carry the headers). */
  used = false;

  constructor(settings: RateLimitSettings) {
    this.#settings = settings;
  }

  #connect(): Redis {
    const { Redis: Client } = loadPackage<typeof import('ioredis')>('ioredis');
    // No offline queue: while Redis is away each instance counts in memory (the insurance limiter) instead of waiting.
    const redis = new Client(this.#settings.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A Redis that hangs (a stopped server, a lost network) is waited for a second, then counted in memory.
      commandTimeout: 1000,
      // A socket that does not close when let go of (Redis down at shutdown) is destroyed soon, not after 2 s.
      disconnectTimeout: 200,
    });
    redis.on('error', (error: Error) =>
      log.warn(`Redis for rate limits: ${error.message}; counting in memory meanwhile`),
    );
    // The first requests wait for the connection (up to a second): a fresh instance does not count alone in memory.
    this.#connecting = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#connecting = undefined;
        resolve();
      };
      const timer = setTimeout(done, 1000);
      unref(timer);
      redis.once('ready', done);
    });
    return redis;
  }

  #limiter(name: string, points: number, windowSeconds: number): RateLimiterAbstract {
    // The memory limiter's own module: the package's index also loads its cluster limiter, which needs node:cluster.
    const Memory = require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof RateLimiterMemory;
    const memory = new Memory({ points, duration: windowSeconds, keyPrefix: name });
    if (this.#settings.backend === 'memory') return memory;
    const redis = (this.#redis ??= this.#connect());
    // The package's root, not its `lib/RateLimiterRedis`: what an application hands in (a Worker bundle) is the root.
    const Shared = loadPackage<{ RateLimiterRedis: typeof RateLimiterRedis }>('rate-limiter-flexible').RateLimiterRedis;
    return new Shared({
      storeClient: redis,
      points,
      duration: windowSeconds,
      keyPrefix: `rxrest:rl:${name}`,
      insuranceLimiter: memory,
    });
  }

  /** Made at its first use, so a build that fails later opens no Redis connection. */
  counter(name: string, points: number, windowSeconds: number): (key: string) => Promise<RateLimiterRes> {
    let made: RateLimiterAbstract | undefined;
    return (key) => {
      const limiter = (made ??= this.#limiter(name, points, windowSeconds));
      return this.#connecting ? this.#connecting.then(() => limiter.consume(key)) : limiter.consume(key);
    };
  }

  failedAuthentications(): FailedAuthentications | undefined {
    const { failures, failuresWindowMs, proxy } = this.#settings;
    if (failures <= 0) return undefined;
    const windowSeconds = Math.max(1, Math.round(failuresWindowMs / 1000));
    return new FailedAuthentications(this.counter('failed-authentications', failures, windowSeconds), {
      budget: failures,
      windowSeconds,
      proxy,
    });
  }

  /** The endpoint's own count (also under a class-wide `@RateLimit`); `undefined` when nothing limits it. */
  step(declared: RateLimitOptions | undefined, where: string, streams: boolean): StageFn | undefined {
    const settings = this.#settings;
    const options = declared ?? { requests: settings.requests, streams: settings.streams };
    const requests = options.requests ?? 0;
    const maxStreams = streams ? (options.streams ?? 0) : 0;
    if (requests <= 0 && maxStreams <= 0) return undefined;
    this.used = true;
    const windowSeconds = Math.round(windowOf(options, settings.windowMs, where) / 1000);
    const consume = requests > 0 ? this.counter(where, requests, windowSeconds) : undefined;
    const requestPolicy = policyOf('requests', requests, windowSeconds);
    const streamPolicy = policyOf('streams', maxStreams);
    const open = new StreamCounts();
    const holdStream = (ctx: RequestContext, client: string): RequestContext => {
      if (maxStreams > 0 && !open.hold(ctx, client, maxStreams))
        throw tooMany(streamPolicy, 1, `At most ${maxStreams} open streams per client`);
      return ctx;
    };
    return (ctx) => {
      const client = this.client(ctx);
      if (!consume) return holdStream(ctx, client);
      return consume(client).then(
        (left: RateLimiterRes) => {
          ctx.set(RATE_HEADERS, headersOf(requestPolicy, left.remainingPoints, Math.ceil(left.msBeforeNext / 1000)));
          return holdStream(ctx, client);
        },
        (refusal: unknown) => {
          if (refusal instanceof Error) throw refusal;
          const wait = secondsUntil((refusal as RateLimiterRes).msBeforeNext);
          throw tooMany(requestPolicy, wait, `At most ${requests} requests per ${windowSeconds} s per client`);
        },
      );
    };
  }

  /** Who a request counts against, for every limit (the stream caps too): all in-process requests share one. */
  readonly client = (ctx: RequestContext): string => {
    const name = principalName(ctx);
    return name !== undefined
      ? `principal:${name}`
      : `address:${clientAddressOf(ctx, this.#settings.proxy) ?? 'unknown'}`;
  };

  readonly finish = (ctx: RequestContext): void => {
    const headers = ctx.get(RATE_HEADERS);
    if (!headers || !ctx.response) return;
    for (const [name, value] of Object.entries(headers)) ctx.response.headers.set(name, value);
  };

  async close(): Promise<void> {
    const redis = this.#redis;
    this.#redis = undefined;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
