/**
 * Broadcast events through Redis pub/sub: one connection publishes, one listens to every topic's channel. Each instance
 * keeps its own history (the events it saw). While Redis is unreachable, events published reach this instance's
 * subscribers only; when it is back, every subscriber is told (`event: reset`) it may have missed some.
 */
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import type { Backplane, BackplaneListener, HistoryPage, Outgoing, TopicState } from './backplane';
import type { Retention } from './event-ring';
import { RecentKeys } from './recent-keys';
import { messageOf } from '../errors/message-of';
import { commandOptions, RedisBackplaneBase, redisConnection } from './redis-backplane-base';
import { presenceKey } from './redis-presence';
import type { BroadcastEvent } from './topic-events';

const log = logging.getLogger('rxrest.streaming');

const CHANNEL_PREFIX = 'rxrest:broadcast:';
/** The end a reader's instance gives a stream whose producer's process died. */
const LOST = { lost: true };
const LOST_BYTES = JSON.stringify(LOST).length;
/** Its ids: the publishing instance's tag, then its count. */
const EVENT_ID = /^[0-9a-f]{8}-\d{1,16}$/;

export class RedisBackplane extends RedisBackplaneBase implements Backplane {
  readonly backend = 'redis';
  readonly durable = false;
  readonly #keys = new RecentKeys();
  #sequence = 0;

  constructor(url: string, json: JsonMapper, retention: Retention) {
    const commands = redisConnection(url, commandOptions);
    const receiver = redisConnection(url, {
      ...commandOptions,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResendUnfulfilledCommands: true,
      commandTimeout: undefined,
    });
    super(url, 'events reach this instance only meanwhile', commands, receiver, json, retention);
    receiver.on('pmessage', (_pattern: string, channel: string, message: string) => this.#received(channel, message));
  }

  override start(listener: BackplaneListener): void {
    super.start(listener);
    // ioredis subscribes again by itself after each reconnection.
    void this.receiver.psubscribe(`${CHANNEL_PREFIX}*`).catch((error: unknown) => this.lost(error));
  }

  publish(topic: string, outgoing: Outgoing, retention: Retention): Promise<string> {
    const seen = this.#keys.get(topic, outgoing.idempotencyKey);
    if (seen !== undefined) return Promise.resolve(seen);
    const { data, event: name, trace, bytes } = outgoing;
    const event: BroadcastEvent = { id: `${this.tag}-${++this.#sequence}`, data, event: name, trace, bytes };
    this.#keys.set(topic, outgoing.idempotencyKey, event.id, retention);
    // Not lost on this instance during an outage: its own subscribers still get it.
    if (!this.connected) return Promise.resolve(this.#local(topic, event));
    return this.commands.publish(`${CHANNEL_PREFIX}${topic}`, this.json.writeValueAsString(event)).then(
      () => event.id,
      (error: unknown) => {
        this.lost(error);
        return this.#local(topic, event);
      },
    );
  }

  isEventId(id: string): boolean {
    return EVENT_ID.test(id);
  }

  history(): Promise<HistoryPage> {
    return Promise.reject(new Error('the redis pub/sub backplane keeps no history of its own'));
  }

  /** Exists while its producer runs: its presence in Redis outlives it (a client resuming on it waited forever). */
  async describe(topic: string): Promise<TopicState> {
    return { exists: await this.running(topic), endId: undefined };
  }

  /** Pub/sub keeps no history in Redis: each process's topics let theirs go. */
  expire(): void {}

  /** With `confirm`, this instance's readers are handed the end: no shared history to store it in. */
  async abandoned(topic: string, confirm: boolean): Promise<boolean> {
    const [members, running] = await Promise.all([
      this.commands.zrange(presenceKey(topic), '0', '-1'),
      this.running(topic),
    ]);
    // A producer was ever registered on the topic (within the retention), and says it runs no more.
    const gone = members.some((member) => member.startsWith('producer:')) && !running;
    if (gone && confirm)
      this.#local(topic, { id: `${this.tag}-${++this.#sequence}`, event: 'error', data: LOST, bytes: LOST_BYTES });
    return gone;
  }

  protected override reconnected(): void {
    this.listener?.resetAll();
  }

  #local(topic: string, event: BroadcastEvent): string {
    this.listener?.deliver(topic, event);
    return event.id;
  }

  #received(channel: string, message: string): void {
    try {
      const event = this.json.readValue(message) as BroadcastEvent;
      this.listener?.deliver(channel.slice(CHANNEL_PREFIX.length), event);
    } catch (error) {
      log.error(`A broadcast event on ${channel} could not be read: ${messageOf(error)}`);
    }
  }
}
