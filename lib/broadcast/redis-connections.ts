/** What the Redis backplanes share: their two connections, retries, the URL in logs, an outage said once, presence. */
import { randomHex } from '../runtime/random-hex';
import { loadPackage } from '../runtime/load-package';
import type { Redis, RedisOptions } from 'ioredis';
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import { messageOf } from '../errors/message-of';
import type { BackplaneListener } from './backplane';
import type { Retention } from './event-ring';
import { RedisPresence } from './redis-presence';

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

/**
 * A connection for commands (and presence) and one that receives events. An outage (errors, reconnections) is logged
 * once when it starts, and once when both are ready again.
 */
export abstract class RedisBackplaneBase {
  /** This instance among the others: its presence, and (pub/sub) the start of its event ids. */
  protected readonly tag = randomHex(4);
  protected readonly presence: RedisPresence;
  protected listener: BackplaneListener | undefined;
  readonly #where: string;
  #down = false;
  #closed = false;

  constructor(
    url: string,
    /** What an outage means meanwhile, as its log line says. */
    protected readonly meanwhile: string,
    protected readonly commands: Redis,
    protected readonly receiver: Redis,
    protected readonly json: JsonMapper,
    retention: Retention,
  ) {
    this.#where = shown(url);
    for (const connection of [commands, receiver]) {
      connection.on('error', (error: Error) => this.lost(error));
      connection.on('reconnecting', () => this.lost(new Error('the connection closed')));
      connection.on('ready', () => this.connected && this.#regained());
    }
    this.presence = new RedisPresence(commands, this.tag, retention);
  }

  get connected(): boolean {
    return this.commands.status === 'ready' && this.receiver.status === 'ready';
  }

  start(listener: BackplaneListener): void {
    this.listener = listener;
    void this.commands.connect().catch(() => undefined);
  }

  watch(topic: string, watching: boolean, presence: boolean): void {
    // A plain topic leaves nothing in Redis when its last subscriber goes: topics come and go by the thousand.
    if (presence) this.presence.watch(topic, watching);
  }

  readonly register = (topic: string): Promise<void> => this.presence.register(topic);
  readonly idleFor = (topic: string): Promise<number> => this.presence.idleFor(topic);
  readonly keepAlive = (topic: string, running: boolean): void => this.presence.keepAlive(topic, running);

  async close(): Promise<void> {
    this.#closed = true;
    this.presence.close();
    await Promise.all([this.hangUp(), this.commands.quit().catch(() => this.commands.disconnect())]);
  }

  protected lost(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    log.error(
      `Broadcast backplane: Redis at ${this.#where} is unreachable (${messageOf(error)}); retrying, ${this.meanwhile}`,
    );
  }

  /** Lets the receiving connection go. */
  protected hangUp(): Promise<unknown> {
    return this.receiver.quit().catch(() => this.receiver.disconnect());
  }

  /** Both connections are ready again after an outage. */
  protected reconnected(): void {}

  #regained(): void {
    if (!this.#down || this.#closed) return;
    this.#down = false;
    log.info(`Broadcast backplane: connected to Redis at ${this.#where} again`);
    this.reconnected();
  }
}
