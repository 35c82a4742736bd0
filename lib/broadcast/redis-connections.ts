/** What the Redis backplanes share about their connections: retries, the URL in logs, an outage said once. */
import { randomHex } from '../runtime/random-hex';
import { loadPackage } from '../runtime/load-package';
import type { Redis, RedisOptions } from 'ioredis';
import { logging } from '../logging/logger';
import { messageOf } from '../errors/message-of';

const log = logging.getLogger('rxrest.streaming');

/** Reconnection delays: 100 ms, 200 ms... up to 2 s between attempts, for as long as it takes. */
export const retryStrategy = (attempts: number): number => Math.min(attempts * 100, 2000);

/**
 * While Redis is unreachable a command fails at once instead of waiting in a queue, and one cut off mid-way is failed
 * rather than sent again (an `XADD` whose answer was lost would be stored twice).
 */
export const commandOptions: RedisOptions = {
  retryStrategy,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: 5000,
  lazyConnect: true,
  // A socket that does not close when let go of (Redis unreachable at shutdown) is destroyed soon, not after 2 s.
  disconnectTimeout: 200,
};

/** A connection to `url`, made with ioredis (loaded at the first). */
export function redisConnection(url: string, options: RedisOptions): Redis {
  return new (loadPackage<typeof import('ioredis')>('ioredis').Redis)(url, options);
}

export function instanceTag(): string {
  return randomHex(4);
}

/** The URL as logs may show it: without a password. */
export function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured Redis URL';
  }
}

/** Logs an outage once when it starts, and once when all the connections are ready again. */
export class Outage {
  #down = false;
  #closed = false;

  constructor(
    readonly where: string,
    readonly meanwhile: string,
  ) {}

  /** Errors and reconnections start an outage, `ready` on all of `connections` ends it. */
  watch(connections: readonly Redis[], onRegained: () => void = () => undefined): void {
    for (const connection of connections) {
      connection.on('error', (error: Error) => this.lost(error));
      connection.on('reconnecting', () => this.lost(new Error('the connection closed')));
      connection.on('ready', () => {
        if (connections.every((each) => each.status === 'ready') && this.#regained()) onRegained();
      });
    }
  }

  lost(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    log.error(
      `Broadcast backplane: Redis at ${this.where} is unreachable (${messageOf(error)}); retrying, ${this.meanwhile}`,
    );
  }

  close(): void {
    this.#closed = true;
  }

  #regained(): boolean {
    if (!this.#down || this.#closed) return false;
    this.#down = false;
    log.info(`Broadcast backplane: connected to Redis at ${this.where} again`);
    return true;
  }
}
