/**
 * Broadcast events through Redis Streams (ioredis): each topic is a stream (`rxrest:stream:<topic>`) that is its
 * history, kept by count and age, and the way every instance receives its events. An event's id is its entry
 * id, so it means the same on every instance and after restarts; a subscriber resuming from an id is answered
 * from the stream, whichever instance it reaches. A publish resolves once Redis has stored the event and fails
 * (503) when it cannot be: nothing is delivered that was not stored.
 */
import type { Redis } from 'ioredis';
import { loadPackage } from '../runtime/load-package';
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
import { commandOptions, instanceTag, Outage, shown } from './redis-connections';
import { presenceKey, RedisPresence } from './redis-presence';
import { StreamReader, type Entry } from './stream-reader';
import type { BroadcastEvent } from './topic-events';

const STREAM_PREFIX = 'rxrest:stream:';
const ONCE_PREFIX = 'rxrest:once:';
const BYTES_PREFIX = 'rxrest:bytes:';
const PRODUCER_PREFIX = 'rxrest:producer:';
/** How long a producer's word that it runs holds; it renews it every second. */
const PRODUCER_TTL_MS = 3000;
/** What the end of a stream whose producer's process died says. */
const LOST = JSON.stringify({ lost: true });
/**
 * Instances receive live events through the history, so a stream keeps at least this many whatever `replay` and
 * `max-bytes` say.
 */
export const MIN_STREAM_LENGTH = 100;
/** How long an idempotency key and a stream without an age limit are kept after the last publish. */
const DEFAULT_EXPIRY_MS = 86_400_000;

// Stores one event (KEYS[1], the topic's stream), once per idempotency key (KEYS[3], when given), then drops the
// oldest events past the count, the bytes (their data, counted in KEYS[2]) or the age (on Redis's own clock, the
// one entry ids are made from). Count and bytes never take the stream below ARGV[8] events, whose live readers on
// other instances may not have read them yet; the event just stored always stays. The stream and its count expire
// when nothing is published for as long as events are kept.
const PUBLISH = `if #KEYS > 2 then
  local seen = redis.call('GET', KEYS[3])
  if seen then return seen end
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
local fields = {'d', ARGV[3]}
if ARGV[4] ~= '' then
  fields[#fields + 1] = 'e'
  fields[#fields + 1] = ARGV[4]
end
if ARGV[6] ~= '' then
  fields[#fields + 1] = 't'
  fields[#fields + 1] = ARGV[6]
end
local id = redis.call('XADD', KEYS[1], '*', unpack(fields))
local total = redis.call('INCRBY', KEYS[2], string.len(ARGV[3]))
local length = redis.call('XLEN', KEYS[1])
local maxEvents = tonumber(ARGV[1])
local maxAge = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[7])
local floor = tonumber(ARGV[8])
local cutoff = -1
if maxAge > 0 then
  local t = redis.call('TIME')
  cutoff = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - maxAge
end
local dropped, freed, keep, start, count = 0, 0, nil, '-', 2
while keep == nil do
  local batch = redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', count)
  if #batch == 0 then break end
  for _, entry in ipairs(batch) do
    local left = length - dropped
    local size = 0
    local f = entry[2]
    for i = 1, #f, 2 do
      if f[i] == 'd' then size = string.len(f[i + 1]) end
    end
    local old = cutoff >= 0 and tonumber(string.match(entry[1], '^(%d+)')) < cutoff
    local over = left > floor and (left > maxEvents or total - freed > maxBytes)
    if entry[1] == id or not (old or over) then
      keep = entry[1]
      break
    end
    dropped = dropped + 1
    freed = freed + size
  end
  start = '(' .. batch[#batch][1]
  count = math.min(count * 2, 64)
end
if dropped > 0 then
  redis.call('XTRIM', KEYS[1], 'MINID', keep)
  redis.call('DECRBY', KEYS[2], freed)
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if #KEYS > 2 then redis.call('SET', KEYS[3], id, 'PX', ARGV[5]) end
return id`;

// Whether a topic that had a producer (one was registered in its presence) has lost it: the producer no longer says
// it runs, and the history has no end. With ARGV[1] = 1, the end (`event: error`) is stored then, once.
const ABANDONED = `if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local produced = false
for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  if string.sub(member, 1, 9) == 'producer:' then produced = true end
end
if not produced then return 0 end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then
  local fields = last[1][2]
  for i = 1, #fields, 2 do if fields[i] == 'e' then return 0 end end
end
if ARGV[1] == '1' then
  redis.call('XADD', KEYS[1], '*', 'd', ARGV[3], 'e', 'error')
  redis.call('INCRBY', KEYS[4], string.len(ARGV[3]))
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
end
return 1`;

export const streamKey = (topic: string): string => `${STREAM_PREFIX}${topic}`;
/** The bytes of data a topic's stream holds, kept beside it by the publish script. */
const bytesKey = (topic: string): string => `${BYTES_PREFIX}${topic}`;

/** The publish script as a command of its own: sent once, then called by its digest (`EVALSHA`). */
interface PublishCommand {
  rxrestPublish(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<string>;
}

export class RedisStreamsBackplane implements Backplane {
  readonly backend = 'redis-streams';
  readonly durable = true;
  readonly #commands: Redis;
  readonly #reader: Redis;
  readonly #json: JsonMapper;
  readonly #outage: Outage;
  readonly #presence: RedisPresence;
  readonly #streams: StreamReader;
  readonly #retention: Retention;
  readonly #pages = new HistoryPages((topic, start, count) => this.#readPage(topic, start, count));
  #listener: BackplaneListener | undefined;

  constructor(url: string, json: JsonMapper, retention: Retention) {
    this.#json = json;
    this.#retention = retention;
    // RESP2 answers: stream replies as nested arrays, the same from every Redis version.
    this.#commands = new (loadPackage<typeof import('ioredis')>('ioredis').Redis)(url, {
      ...commandOptions,
      protocol: 2,
    });
    this.#commands.defineCommand('rxrestPublish', { lua: PUBLISH });
    this.#reader = new (loadPackage<typeof import('ioredis')>('ioredis').Redis)(url, {
      ...commandOptions,
      protocol: 2,
      commandTimeout: undefined,
    });
    this.#outage = new Outage(shown(url), 'publishing answers 503 meanwhile');
    this.#outage.watch([this.#commands, this.#reader]);
    // A Redis that went away may come back without what the kept pages say.
    for (const connection of [this.#commands, this.#reader]) connection.on('close', () => this.#pages.clear());
    this.#presence = new RedisPresence(this.#commands, instanceTag(), retention);
    this.#streams = new StreamReader({
      reader: this.#reader,
      commands: this.#commands,
      outage: this.#outage,
      keyOf: streamKey,
      decode: (entry) => this.#decode(entry),
      listener: () => this.#listener,
    });
  }

  get connected(): boolean {
    return this.#commands.status === 'ready' && this.#reader.status === 'ready';
  }

  start(listener: BackplaneListener): void {
    this.#listener = listener;
    void this.#commands.connect().catch(() => undefined);
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
      retention.maxAgeMs || DEFAULT_EXPIRY_MS,
      outgoing.trace ?? '',
      retention.maxBytes,
      MIN_STREAM_LENGTH,
    ];
    try {
      return String(await (this.#commands as unknown as PublishCommand).rxrestPublish(keys.length, ...keys, ...args));
    } catch (error) {
      if (!this.connected) this.#outage.lost(error);
      throw backplaneUnavailable('The broadcast backend cannot store events now; try again shortly', error);
    }
  }

  isEventId(id: string): boolean {
    return isStreamId(id);
  }

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

  async describe(topic: string): Promise<TopicState> {
    const [last, watched] = await Promise.all([
      this.#commands.call('XREVRANGE', streamKey(topic), '+', '-', 'COUNT', 1) as Promise<Entry[]>,
      this.#presence.exists(topic),
    ]);
    const end = last[0] ? this.#decode(last[0]) : undefined;
    return { exists: last.length > 0 || watched, endId: end?.event !== undefined ? end.id : undefined };
  }

  watch(topic: string, watching: boolean, presence: boolean): void {
    // A plain topic leaves nothing in Redis when its last subscriber goes: topics come and go by the thousand.
    if (presence) this.#presence.watch(topic, watching);
    if (watching) this.#streams.watch(topic);
    else this.#streams.unwatch(topic);
  }

  register(topic: string): Promise<void> {
    return this.#presence.register(topic);
  }

  idleFor(topic: string): Promise<number> {
    return this.#presence.idleFor(topic);
  }

  keepAlive(topic: string, running: boolean): void {
    const key = `${PRODUCER_PREFIX}${topic}`;
    // A renewal lost to an outage is made good by the next one, within the key's life.
    (running ? this.#commands.set(key, '1', 'PX', PRODUCER_TTL_MS) : this.#commands.del(key)).catch(() => undefined);
  }

  async abandoned(topic: string, confirm: boolean): Promise<boolean> {
    const keys = [streamKey(topic), `${PRODUCER_PREFIX}${topic}`, presenceKey(topic), bytesKey(topic)];
    const expiry = this.#retention.maxAgeMs || DEFAULT_EXPIRY_MS;
    return Number(await this.#commands.eval(ABANDONED, keys.length, ...keys, confirm ? 1 : 0, '', LOST, expiry)) === 1;
  }

  async close(): Promise<void> {
    this.#outage.close();
    this.#presence.close();
    this.#streams.close();
    // The reader may be blocked in a read: it is cut, not asked to quit after it, and awaited until closed.
    // (Only a connection that is up has a socket to close; between reconnection attempts there is none.)
    const readerEnded =
      this.#reader.status === 'ready' ? new Promise((resolve) => this.#reader.once('end', resolve)) : Promise.resolve();
    this.#reader.disconnect();
    await Promise.all([readerEnded, this.#commands.quit().catch(() => this.#commands.disconnect())]);
  }

  async #readPage(topic: string, start: string, count: number): Promise<BroadcastEvent[]> {
    let entries: Entry[];
    try {
      entries = (await this.#commands.call('XRANGE', streamKey(topic), start, '+', 'COUNT', count)) as Entry[];
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
        data = this.#json.readValue(fields[at + 1]!);
        bytes = Buffer.byteLength(fields[at + 1]!);
      } else if (fields[at] === 'e') event = fields[at + 1];
      else if (fields[at] === 't') trace = fields[at + 1];
    }
    const decoded: BroadcastEvent = event === undefined ? { id, data, bytes } : { id, data, event, bytes };
    return trace === undefined ? decoded : { ...decoded, trace };
  }
}
