/**
 * Which instances read a topic, kept in Redis so that a resumable stream's producer knows whether anyone still does:
 * per topic a sorted set of the time until which each instance counts as watching (renewed every second; an instance
 * that dies counts as gone a few seconds later), on Redis's own clock so instances whose clocks differ still agree.
 */
import type { Redis } from 'ioredis';
import type { Retention } from './event-ring';
import { messageOf } from '../errors/message-of';

const WATCH_TTL_MS = 3000;
const REFRESH_MS = 1000;
/** Presence is kept this long after the last change when events have no age limit. */
const DEFAULT_EXPIRY_MS = 86_400_000;

/** Milliseconds of Redis's clock, inside a script (`now`). */
export const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const TOUCH = `${NOW}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return now`;
const IDLE = `local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #top == 0 then return -1 end
${NOW}
local idle = now - tonumber(top[2])
if idle < 0 then return 0 end
return idle`;

export const presenceKey = (topic: string): string => `rxrest:watch:${topic}`;
/** Set while a resumable stream's producer runs, on whichever instance: it renews it every second. */
export const producerKey = (topic: string): string => `rxrest:producer:${topic}`;
const PRODUCER_TTL_MS = 3000;

export class RedisPresence {
  readonly #connection: Redis;
  readonly #member: string;
  readonly #expiryMs: number;
  readonly #watched = new Set<string>();
  readonly #refresh: NodeJS.Timeout;

  constructor(connection: Redis, member: string, retention: Retention) {
    this.#connection = connection;
    this.#member = member;
    this.#expiryMs = retention.maxAgeMs > 0 ? retention.maxAgeMs : DEFAULT_EXPIRY_MS;
    this.#refresh = setInterval(() => {
      for (const topic of this.#watched) this.#touch(topic, WATCH_TTL_MS).catch(() => undefined);
    }, REFRESH_MS).unref();
  }

  watch(topic: string, watching: boolean): void {
    if (watching) this.#watched.add(topic);
    else this.#watched.delete(topic);
    // A failure now (Redis unreachable) is made good by the next refresh, or by the word expiring.
    this.#touch(topic, watching ? WATCH_TTL_MS : 0).catch(() => undefined);
  }

  /** A producer starts: the topic counts as watched now, and had a producer, before any instance can resume it. */
  async register(topic: string): Promise<void> {
    await this.#touch(topic, 0, `producer:${this.#member}`);
    await this.#connection.set(producerKey(topic), '1', 'PX', PRODUCER_TTL_MS);
  }

  keepAlive(topic: string, running: boolean): void {
    const key = producerKey(topic);
    // A renewal lost to an outage is made good by the next one, within the key's life.
    (running ? this.#connection.set(key, '1', 'PX', PRODUCER_TTL_MS) : this.#connection.del(key)).catch(
      () => undefined,
    );
  }

  /** Whether a producer was ever registered on the topic (within the retention). */
  async produced(topic: string): Promise<boolean> {
    const members = await this.#connection.zrange(presenceKey(topic), '0', '-1');
    return members.some((member) => member.startsWith('producer:'));
  }

  async running(topic: string): Promise<boolean> {
    return (await this.#connection.exists(producerKey(topic))) > 0;
  }

  /** Milliseconds since any instance last watched the topic (infinite when none ever did). */
  async idleFor(topic: string): Promise<number> {
    const idle = Number(await this.#connection.eval(IDLE, 1, presenceKey(topic)));
    return idle < 0 ? Number.POSITIVE_INFINITY : idle;
  }

  close(): void {
    clearInterval(this.#refresh);
  }

  async #touch(topic: string, ttlMs: number, member = this.#member): Promise<void> {
    try {
      await this.#connection.eval(TOUCH, 1, presenceKey(topic), member, ttlMs, this.#expiryMs);
    } catch (error) {
      throw new Error(`presence of ${topic}: ${messageOf(error)}`, { cause: error });
    }
  }
}
