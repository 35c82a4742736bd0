/** What the Redis backplanes share: their two connections, retries, the URL in logs, an outage said once, presence. */
import { randomHex } from '../runtime/random-hex';
import { loadPackage } from '../runtime/load-package';
import type { Redis, RedisOptions } from 'ioredis';
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import { messageOf } from '../errors/message-of';
import type { BackplaneListener } from './backplane';
import type { Retention } from './event-ring';
import { expiryOf, IDLE, presenceKey, producerKey, TOUCH } from './redis-presence';

const log = logging.getLogger('rxrest.streaming');

/** How long an instance counts as watching a topic; it renews that this often. */
const WATCH_TTL_MS = 3000;
const REFRESH_MS = 1000;
/** The life of a producer's key, which its producer renews every second. */
const PRODUCER_TTL_MS = 3000;

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
 * once when it starts, and once when both are ready again. The topics of resumable streams read here are kept in their
 * presence (see `redis-presence`).
 */
export abstract class RedisBackplaneBase {
  /** This instance among the others: its presence, and (pub/sub) the start of its event ids. */
  protected readonly tag = randomHex(4);
  protected listener: BackplaneListener | undefined;
  readonly #where: string;
  /** How long what it keeps in Redis lasts after the last change (see `expiryOf`). */
  protected readonly expiryMs: number;
  /** The topics whose presence this instance renews. */
  readonly #watched = new Set<string>();
  readonly #refresh: NodeJS.Timeout;
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
    this.expiryMs = expiryOf(retention);
    this.#refresh = setInterval(() => {
      for (const topic of this.#watched) this.#touch(topic, WATCH_TTL_MS).catch(() => undefined);
    }, REFRESH_MS).unref();
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
    if (!presence) return;
    if (watching) this.#watched.add(topic);
    else this.#watched.delete(topic);
    // A failure now (Redis unreachable) is made good by the next refresh, or by the word expiring.
    this.#touch(topic, watching ? WATCH_TTL_MS : 0).catch(() => undefined);
  }

  /** A producer starts: the topic counts as watched now, and had a producer, before any instance can resume it. */
  async register(topic: string): Promise<void> {
    await this.#touch(topic, 0, `producer:${this.tag}`);
    await this.commands.set(producerKey(topic), '1', 'PX', PRODUCER_TTL_MS);
  }

  keepAlive(topic: string, running: boolean): void {
    const key = producerKey(topic);
    // A renewal lost to an outage is made good by the next one, within the key's life.
    (running ? this.commands.set(key, '1', 'PX', PRODUCER_TTL_MS) : this.commands.del(key)).catch(() => undefined);
  }

  /** Milliseconds since any instance last watched the topic (infinite when none ever did). */
  async idleFor(topic: string): Promise<number> {
    const idle = Number(await this.commands.eval(IDLE, 1, presenceKey(topic)));
    return idle < 0 ? Number.POSITIVE_INFINITY : idle;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#refresh);
    await Promise.all([this.hangUp(), this.commands.quit().catch(() => this.commands.disconnect())]);
  }

  protected lost(error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    log.error(
      `Broadcast backplane: Redis at ${this.#where} is unreachable (${messageOf(error)}); retrying, ${this.meanwhile}`,
    );
  }

  /** Whether the topic's producer still says it runs. */
  protected async running(topic: string): Promise<boolean> {
    return (await this.commands.exists(producerKey(topic))) > 0;
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

  async #touch(topic: string, ttlMs: number, member = this.tag): Promise<void> {
    try {
      await this.commands.eval(TOUCH, 1, presenceKey(topic), member, ttlMs, this.expiryMs);
    } catch (error) {
      throw new Error(`presence of ${topic}: ${messageOf(error)}`, { cause: error });
    }
  }
}
