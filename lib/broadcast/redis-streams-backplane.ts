/**
 * Broadcast events through Redis Streams: each topic is a stream (`rxrest:stream:<topic>`), its history and the way
 * every instance receives its events, so an event's id means the same everywhere and after restarts. A publish
 * resolves once Redis stored the event and fails (503) when it cannot: nothing is delivered that was not stored.
 */
import type { JsonMapper } from '../json/json-mapper';
import {
  backplaneUnavailable,
  type Backplane,
  type BackplaneListener,
  type HistoryPage,
  type Outgoing,
  type TopicState,
} from './backplane';
import { isStreamId } from './event-ids';
import { HistoryPages } from './history-pages';
import type { Retention } from './event-ring';
import { commandOptions, RedisBackplaneBase, redisConnection } from './redis-backplane-base';
import { expiryOf, presenceKey, producerKey } from './redis-presence';
import { ABANDONED, PUBLISH } from './redis-streams-scripts';
import { StreamReader, streamKey, type Entry } from './stream-reader';
import type { BroadcastEvent } from './topic-events';
import { utf8Length } from '../runtime/bytes';

const ONCE_PREFIX = 'rxrest:once:';
const BYTES_PREFIX = 'rxrest:bytes:';
/** What the end of a stream whose producer's process died says. */
const LOST = JSON.stringify({ lost: true });
/**
 * Instances receive live events through the history, so a stream keeps at least this many, and every event of its live
 * window (`framework.broadcast.redis.live-window`) whatever `replay` says (`max-bytes` still bounds those): else a
 * burst between two reads of a busy reader was trimmed before it was read, and lost.
 */
const MIN_STREAM_LENGTH = 100;

/** The bytes of data a topic's stream holds, kept by the publish script. */
const bytesKey = (topic: string): string => `${BYTES_PREFIX}${topic}`;

/** The publish script as a command of its own: sent once, then called by its digest (`EVALSHA`). */
interface PublishCommand {
  rxrestPublish(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<string>;
}

export class RedisStreamsBackplane extends RedisBackplaneBase implements Backplane {
  readonly backend = 'redis-streams';
  readonly durable = true;
  readonly #streams: StreamReader;
  readonly #liveWindowMs: number;
  readonly #pages = new HistoryPages((topic, start, count) => this.#readPage(topic, start, count));

  constructor(url: string, json: JsonMapper, retention: Retention, liveWindowMs: number) {
    // RESP2 answers: stream replies as nested arrays, the same from every Redis version.
    const commands = redisConnection(url, { ...commandOptions, protocol: 2 });
    const reader = redisConnection(url, { ...commandOptions, protocol: 2, commandTimeout: undefined });
    super(url, 'publishing answers 503 meanwhile', commands, reader, json, retention);
    this.#liveWindowMs = liveWindowMs;
    commands.defineCommand('rxrestPublish', { lua: PUBLISH });
    // A Redis that went away may come back without what the kept pages say.
    for (const connection of [commands, reader]) connection.on('close', () => this.#pages.clear());
    this.#streams = new StreamReader({
      reader,
      commands,
      lost: (error) => this.lost(error),
      decode: (entry) => this.#decode(entry),
      listener: () => this.listener,
    });
  }

  override start(listener: BackplaneListener): void {
    super.start(listener);
    this.#streams.start();
  }

  async publish(topic: string, outgoing: Outgoing, retention: Retention): Promise<string> {
    const keys = [streamKey(topic), bytesKey(topic)];
    if (outgoing.idempotencyKey !== undefined) keys.push(`${ONCE_PREFIX}${topic}:${outgoing.idempotencyKey}`);
    const args = [
      retention.maxEvents,
      retention.maxAgeMs,
      outgoing.json,
      outgoing.event ?? '',
      expiryOf(retention),
      outgoing.trace ?? '',
      retention.maxBytes,
      MIN_STREAM_LENGTH,
      this.#liveWindowMs,
    ];
    try {
      return String(await (this.commands as unknown as PublishCommand).rxrestPublish(keys.length, ...keys, ...args));
    } catch (error) {
      if (!this.connected) this.lost(error);
      throw backplaneUnavailable('The broadcast backend cannot store events now; try again shortly', error);
    }
  }

  readonly isEventId = isStreamId;

  async history(topic: string, after: string | undefined, count: number): Promise<HistoryPage> {
    if (after !== undefined) {
      // Read from the client's last event: when the stream still holds it, the rest is what it missed.
      const page = await this.#pages.page(topic, after, count + 1);
      if (page[0]?.id === after) return { events: page.slice(1), more: page.length > count };
    }
    const events = await this.#pages.page(topic, '-', count);
    const more = events.length === count;
    return after === undefined ? { events, more } : { events, more, reset: { oldest: events[0]?.id } };
  }

  /** Not on the word of its presence, which readers leaving renew after the stream expired (resumes waited forever). */
  async describe(topic: string): Promise<TopicState> {
    const [last, running] = await Promise.all([
      this.commands.call('XREVRANGE', streamKey(topic), '+', '-', 'COUNT', 1) as Promise<Entry[]>,
      this.running(topic),
    ]);
    const end = last[0] ? this.#decode(last[0]) : undefined;
    return { exists: last.length > 0 || running, endId: end?.event !== undefined ? end.id : undefined };
  }

  override watch(topic: string, watching: boolean, presence: boolean): void {
    super.watch(topic, watching, presence);
    this.#streams.watch(topic, watching);
  }

  expire(topic: string, ms: number): void {
    // Lost to an outage, the keys expire with the retention as before.
    for (const key of [streamKey(topic), bytesKey(topic)]) this.commands.pexpire(key, ms).catch(() => undefined);
  }

  async abandoned(topic: string, confirm: boolean): Promise<boolean> {
    const keys = [streamKey(topic), producerKey(topic), presenceKey(topic), bytesKey(topic)];
    const args = [confirm ? 1 : 0, '', LOST, this.expiryMs];
    return Number(await this.commands.eval(ABANDONED, keys.length, ...keys, ...args)) === 1;
  }

  /** The reader may be blocked in a read: it is cut, not asked to quit, and awaited until closed (if it is up). */
  protected override hangUp(): Promise<unknown> {
    this.#streams.close();
    const { receiver } = this;
    const ended =
      receiver.status === 'ready' ? new Promise((resolve) => receiver.once('end', resolve)) : Promise.resolve();
    receiver.disconnect();
    return ended;
  }

  async #readPage(topic: string, start: string, count: number): Promise<BroadcastEvent[]> {
    let entries: Entry[];
    try {
      entries = (await this.commands.call('XRANGE', streamKey(topic), start, '+', 'COUNT', count)) as Entry[];
    } catch (error) {
      throw backplaneUnavailable('The broadcast history cannot be read now; try again shortly', error);
    }
    return entries.map((entry) => this.#decode(entry));
  }

  #decode([id, fields]: Entry): BroadcastEvent {
    let data: unknown;
    let bytes = 0;
    let event: string | undefined;
    let trace: string | undefined;
    for (let at = 0; at + 1 < fields.length; at += 2) {
      if (fields[at] === 'd') {
        data = this.json.readValue(fields[at + 1]!);
        bytes = utf8Length(fields[at + 1]!);
      } else if (fields[at] === 'e') event = fields[at + 1];
      else if (fields[at] === 't') trace = fields[at + 1];
    }
    const decoded: BroadcastEvent = event === undefined ? { id, data, bytes } : { id, data, event, bytes };
    return trace === undefined ? decoded : { ...decoded, trace };
  }
}
