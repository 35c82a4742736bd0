/**
 * Which instances have subscribers of a topic, kept in Redis so that a resumable stream's producer on one
 * instance knows whether anyone, anywhere, still reads it. Per topic a sorted set holds, for each instance, the
 * time until which it counts as watching: refreshed every second while it has subscribers, set to "now" when
 * its last one leaves. An instance that dies stops refreshing and counts as gone a few seconds later. Times
 * are Redis's own clock, so instances whose clocks differ still agree.
 */
import type { Redis } from 'ioredis';
import type { Retention } from './event-ring';
import { messageOf } from '../errors/message-of';

/** How long an instance's word that it is watching holds, and how often it renews it. */
const WATCH_TTL_MS = 3000;
const REFRESH_MS = 1000;
/** Presence is kept this long after the last change when events have no age limit. */
const DEFAULT_EXPIRY_MS = 86_400_000;

// Milliseconds of Redis's clock, inside a script.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
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
/** How long a producer's word that it runs holds. */
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

  /**
   * A producer starts: the topic exists, counts as watched now (its member names it as having had a producer), and
   * its producer is said to run before any instance can be asked to resume it.
   */
  async register(topic: string): Promise<void> {
    await this.#touch(topic, 0, `producer:${this.#member}`);
    await this.#connection.set(producerKey(topic), '1', 'PX', PRODUCER_TTL_MS);
  }

  /** A producer says it still runs (every second), or (`false`) that it has ended. */
  keepAlive(topic: string, running: boolean): void {
    const key = producerKey(topic);
    // A renewal lost to an outage is made good by the next one, within the key's life.
    (running ? this.#connection.set(key, '1', 'PX', PRODUCER_TTL_MS) : this.#connection.del(key)).catch(
      () => undefined,
    );
  }

  /** Whether a producer was ever registered on the topic (within the retention), on any instance. */
  async produced(topic: string): Promise<boolean> {
    const members = await this.#connection.zrange(presenceKey(topic), '0', '-1');
    return members.some((member) => member.startsWith('producer:'));
  }

  /** Whether the topic's producer runs now, on any instance (it said so within the last few seconds). */
  async running(topic: string): Promise<boolean> {
    return (await this.#connection.exists(producerKey(topic))) > 0;
  }

  /** Milliseconds since any instance last watched the topic (0 while one does; infinite when none ever did). */
  async idleFor(topic: string): Promise<number> {
    const idle = Number(await this.#connection.eval(IDLE, 1, presenceKey(topic)));
    return idle < 0 ? Number.POSITIVE_INFINITY : idle;
  }

  async exists(topic: string): Promise<boolean> {
    return (await this.#connection.exists(presenceKey(topic))) > 0;
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
