/**
 * Per-client limits: requests per window (counted with rate-limiter-flexible, in memory or on Redis so that every
 * instance and worker shares the count) and streams held open at once (counted per process). A client is its
 * principal when authenticated, else its address. Past a limit: 429 problem JSON with `Retry-After` and the IETF
 * `RateLimit` / `RateLimit-Policy` headers (draft-ietf-httpapi-ratelimit-headers); within it, the headers say how
 * much is left.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config/config';
import { parseDuration } from '../config/duration';
import type { RateLimitOptions } from '../decorators/rate-limit';
import { problemDetails } from '../errors/problem-details';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import type { StageFn } from '../pipeline/settle';
import type { RequestContext } from '../pipeline/request-context';
import { principalName } from '../security/security-context';
import { StreamCounts } from '../streaming/stream-counts';

const log = logging.getLogger('rxrest.limits');

export interface RateLimitSettings {
  readonly requests: number;
  readonly windowMs: number;
  readonly streams: number;
  readonly backend: 'memory' | 'redis';
  readonly redisUrl: string;
  readonly trustForwarded: boolean;
}

export function rateLimitSettings(config: Config): RateLimitSettings {
  return {
    requests: config.get('framework.http.rate-limit.requests'),
    windowMs: config.get('framework.http.rate-limit.window'),
    streams: config.get('framework.http.rate-limit.streams'),
    backend: config.get('framework.http.rate-limit.backend'),
    redisUrl: config.get('framework.http.rate-limit.redis.url'),
    trustForwarded: config.get('framework.http.proxy.proxy-address-forwarding'),
  };
}

/** Who a request counts against: its principal, else its address (the first `X-Forwarded-For` behind a trusted proxy). */
function clientOf(ctx: RequestContext, trustForwarded: boolean): string {
  const name = principalName(ctx);
  if (name !== undefined) return `principal:${name}`;
  if (trustForwarded) {
    const forwarded = ctx.headerValue('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return `address:${forwarded}`;
  }
  // Under listen(), Node's request; under another Node adapter, the request it passed along; in process, none.
  const incoming =
    ctx.exchange?.incoming ??
    (ctx.environment as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return `address:${incoming?.socket?.remoteAddress ?? 'unknown'}`;
}

const RATE_HEADERS = 'rxrest.rate-limit-headers';

/** One policy of the IETF headers: its `RateLimit-Policy` value, made once, and its `RateLimit` value per answer. */
interface Policy {
  readonly name: string;
  readonly declared: string;
}

function policyOf(name: string, quota: number, windowSeconds?: number): Policy {
  return { name, declared: `"${name}";q=${quota}${windowSeconds === undefined ? '' : `;w=${windowSeconds}`}` };
}

/** The headers of `policy` with what is left of it and the seconds until it resets. */
function headersOf(policy: Policy, remaining: number, resetSeconds: number): Record<string, string> {
  return { 'ratelimit-policy': policy.declared, ratelimit: `"${policy.name}";r=${remaining};t=${resetSeconds}` };
}

function tooMany(headers: Record<string, string>, retryAfter: number, detail: string): WebApplicationException {
  return new WebApplicationException(detail, 429, {
    headers: { ...headers, 'retry-after': String(retryAfter) },
    problem: problemDetails('RXREST_RATE_LIMITED', detail),
  });
}

function windowOf(options: RateLimitOptions, fallbackMs: number, where: string): number {
  const value = options.window;
  const ms = value === undefined ? fallbackMs : typeof value === 'number' ? value : parseDuration(value);
  if (ms === undefined || ms < 1000)
    throw new Error(`${where}: @RateLimit window must be at least one second, got ${String(value)}`);
  return ms;
}

/** The limiters of one application: one request counter per declaration, Redis shared by all of them. */
export class RateLimiters {
  readonly #settings: RateLimitSettings;
  #redis: Redis | undefined;
  #connecting: Promise<void> | undefined;
  /** Whether any endpoint is limited (the pipeline then adds the headers to answers). */
  used = false;

  constructor(settings: RateLimitSettings) {
    this.#settings = settings;
  }

  #limiter(name: string, points: number, windowSeconds: number): RateLimiterAbstract {
    const flexible = require('rate-limiter-flexible') as typeof import('rate-limiter-flexible');
    const memory = new flexible.RateLimiterMemory({ points, duration: windowSeconds, keyPrefix: name });
    if (this.#settings.backend === 'memory') return memory;
    if (!this.#redis) {
      const { Redis: Client } = require('ioredis') as typeof import('ioredis');
      // No offline queue: while Redis is away each instance counts in memory (the insurance limiter) instead of waiting.
      const redis = new Client(this.#settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      redis.on('error', (error: Error) =>
        log.warn(`Redis for rate limits: ${error.message}; counting in memory meanwhile`),
      );
      // The first requests wait for the first connection (up to a second), so a fresh instance does not start by
      // counting alone in memory.
      this.#connecting = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#connecting = undefined;
          resolve();
        };
        const timer = setTimeout(done, 1000);
        timer.unref();
        redis.once('ready', done);
      });
      this.#redis = redis;
    }
    return new flexible.RateLimiterRedis({
      storeClient: this.#redis,
      points,
      duration: windowSeconds,
      keyPrefix: `rxrest:rl:${name}`,
      insuranceLimiter: memory,
    });
  }

  /**
   * The rate-limit step of the endpoint `where` (`Class#method`: its own count, also under a class-wide
   * `@RateLimit`), from `declared` on it or its class, else the configured defaults; `undefined` when nothing limits
   * it. Runs after authentication, so a caller counts by principal.
   */
  step(declared: RateLimitOptions | undefined, where: string, streams: boolean): StageFn | undefined {
    const settings = this.#settings;
    const options = declared ?? { requests: settings.requests, streams: settings.streams };
    const requests = options.requests ?? 0;
    const maxStreams = streams ? (options.streams ?? 0) : 0;
    if (requests <= 0 && maxStreams <= 0) return undefined;
    this.used = true;
    const windowSeconds = Math.round(windowOf(options, settings.windowMs, where) / 1000);
    // Made at the first request, so that a build that fails later opens no Redis connection.
    let made: RateLimiterAbstract | undefined;
    const limiter = requests > 0 ? () => (made ??= this.#limiter(where, requests, windowSeconds)) : undefined;
    const requestPolicy = policyOf('requests', requests, windowSeconds);
    const streamPolicy = policyOf('streams', maxStreams);
    const open = new StreamCounts();
    const holdStream = (ctx: RequestContext, client: string): RequestContext => {
      if (maxStreams > 0 && !open.hold(ctx, client, maxStreams))
        throw tooMany(headersOf(streamPolicy, 0, 1), 1, `At most ${maxStreams} open streams per client`);
      return ctx;
    };
    return (ctx) => {
      const client = clientOf(ctx, settings.trustForwarded);
      if (!limiter) return holdStream(ctx, client);
      const counter = limiter();
      const consumed = this.#connecting
        ? this.#connecting.then(() => counter.consume(client))
        : counter.consume(client);
      return consumed.then(
        (left: RateLimiterRes) => {
          ctx.setProperty(
            RATE_HEADERS,
            headersOf(requestPolicy, left.remainingPoints, Math.ceil(left.msBeforeNext / 1000)),
          );
          return holdStream(ctx, client);
        },
        (refusal: unknown) => {
          if (refusal instanceof Error) throw refusal;
          const wait = Math.max(1, Math.ceil((refusal as RateLimiterRes).msBeforeNext / 1000));
          throw tooMany(
            headersOf(requestPolicy, 0, wait),
            wait,
            `At most ${requests} requests per ${windowSeconds} s per client`,
          );
        },
      );
    };
  }

  /** Who a request counts against, as every limit of the application counts it (the stream caps too). */
  readonly client = (ctx: RequestContext): string => clientOf(ctx, this.#settings.trustForwarded);

  /** Adds the `RateLimit` headers of an admitted request to its answer. */
  readonly finish = (ctx: RequestContext): void => {
    const headers = ctx.getProperty<Record<string, string>>(RATE_HEADERS);
    if (!headers || !ctx.response) return;
    for (const [name, value] of Object.entries(headers)) ctx.response.headers.set(name, value);
  };

  /** Lets go of the Redis connection, if there is one. */
  async close(): Promise<void> {
    const redis = this.#redis;
    this.#redis = undefined;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
