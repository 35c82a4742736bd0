/**
 * Broadcast events through Redis pub/sub (ioredis): one connection publishes, one listens to every topic's
 * channel, so an event published on any instance reaches the subscribers of all, in the order Redis received
 * them. Items are written by the application's JSON mapper. While Redis is unreachable the connections retry
 * with a growing delay, the outage is logged once, `connected` is false (the readiness check says DOWN),
 * and events published meanwhile reach this instance's subscribers only.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import type { Backplane, BroadcastEvent, Deliver } from './backplane';

const log = logging.getLogger('rxrest.streaming');

const CHANNEL_PREFIX = 'rxrest:broadcast:';
/** Reconnection delays: 100 ms, 200 ms... up to 2 s between attempts, for as long as it takes. */
const retryStrategy = (attempts: number): number => Math.min(attempts * 100, 2000);

/** The URL as logs may show it: without a password. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured Redis URL';
  }
}

export class RedisBackplane implements Backplane {
  readonly idPrefix = `${randomBytes(4).toString('hex')}-`;
  readonly #publisher: Redis;
  readonly #listener: Redis;
  readonly #json: JsonMapper;
  #deliver: Deliver = () => undefined;
  #down = false;
  #closed = false;

  constructor(url: string, json: JsonMapper) {
    this.#json = json;
    const where = shown(url);
    // Commands wait for a connection only while it is being made: during an outage publishing is not queued.
    const options = { retryStrategy, enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true };
    this.#publisher = new Redis(url, options);
    this.#listener = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
    for (const connection of [this.#publisher, this.#listener]) {
      connection.on('error', (error: Error) => this.#lost(where, error));
      connection.on('reconnecting', () => this.#lost(where, new Error('the connection closed')));
      connection.on('ready', () => this.#regained(where));
    }
    this.#listener.on('pmessage', (_pattern: string, channel: string, message: string) => this.#received(channel, message));
  }

  get connected(): boolean {
    return this.#publisher.status === 'ready' && this.#listener.status === 'ready';
  }

  start(deliver: Deliver): void {
    this.#deliver = deliver;
    // ioredis subscribes again by itself after each reconnection.
    void this.#listener.psubscribe(`${CHANNEL_PREFIX}*`).catch((error: unknown) => this.#lost('redis', error));
    void this.#publisher.connect().catch(() => undefined);
  }

  publish(topic: string, event: BroadcastEvent): void {
    if (!this.connected) {
      // Not lost on this instance: its own subscribers still get it.
      this.#deliver(topic, event);
      return;
    }
    this.#publisher.publish(`${CHANNEL_PREFIX}${topic}`, this.#json.writeValueAsString(event)).catch((error: unknown) => {
      this.#lost('redis', error);
      this.#deliver(topic, event);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#publisher, this.#listener].map((connection) => connection.quit().catch(() => connection.disconnect())));
  }

  #received(channel: string, message: string): void {
    try {
      const event = this.#json.readValue(message) as BroadcastEvent;
      this.#deliver(channel.slice(CHANNEL_PREFIX.length), event);
    } catch (error) {
      log.error(`A broadcast event on ${channel} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #lost(where: string, error: unknown): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    log.error(`Broadcast backplane: Redis at ${where} is unreachable (${error instanceof Error ? error.message : String(error)}); retrying, events reach this instance only meanwhile`);
  }

  #regained(where: string): void {
    if (!this.#down || !this.connected) return;
    this.#down = false;
    log.info(`Broadcast backplane: connected to Redis at ${where} again`);
  }
}
