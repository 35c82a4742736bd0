/**
 * Reads the live events of the topics this instance has subscribers of: one blocking `XREAD` over all their streams,
 * on a connection of its own. A topic whose last id read is gone (trimmed while the reader lagged or was away, or
 * Redis lost its data: the epoch key changed) is reset (`event: reset`) and read again from the oldest event held.
 */
import { randomHex } from '../runtime/random-hex';
import type { Redis } from 'ioredis';
import type { BackplaneListener } from './backplane';
import { logging } from '../logging/logger';
import { messageOf } from '../errors/message-of';
import type { BroadcastEvent } from './topic-events';

export type Entry = [id: string, fields: string[]];

/** The Redis stream of a topic: its history, and the way every instance receives its events. */
export const streamKey = (topic: string): string => `rxrest:stream:${topic}`;

/** The last id read of a watched topic (undefined until the stream's end is known); new when watched anew. */
interface Cursor {
  id: string | undefined;
}

const EPOCH_KEY = 'rxrest:epoch';
const BATCH = 1000;
/** A blocking read ends after this long anyway, so that a topic added at the wrong instant waits no longer. */
const BLOCK_MS = 5000;
/** While a topic added waits to be read, the blocked read is interrupted again this often. */
const NUDGE_MS = 50;
const FROM_THE_START = '0-0';

const log = logging.getLogger('rxrest.streaming');

export interface StreamReaderParts {
  readonly reader: Redis;
  readonly commands: Redis;
  readonly lost: (error: unknown) => void;
  readonly decode: (entry: Entry) => BroadcastEvent;
  readonly listener: () => BackplaneListener | undefined;
}

export class StreamReader {
  readonly #parts: StreamReaderParts;
  readonly #cursors = new Map<string, Cursor>();
  #knownEpoch: string | undefined;
  #readerId: number | undefined;
  /** Bumped whenever a topic becomes readable; a blocked read made before it is out of date. */
  #generation = 0;
  #blockedAt: number | undefined;
  #wake: (() => void) | undefined;
  #recovered = false;
  #closed = false;

  constructor(parts: StreamReaderParts) {
    this.#parts = parts;
    parts.reader.on('close', () => (this.#readerId = undefined));
  }

  start(): void {
    this.#parts.reader.connect().catch(() => undefined);
    void this.#run();
  }

  /** Reads `topic` from now on, or (`watching` false) no more. */
  watch(topic: string, watching: boolean): void {
    if (!watching) return void this.#cursors.delete(topic);
    if (this.#cursors.has(topic)) return;
    const cursor: Cursor = { id: undefined };
    this.#cursors.set(topic, cursor);
    // Asked at once (before the subscriber's answer goes out), so that what is published after it is read.
    this.#locate(topic, cursor, this.#parts.commands).catch(() => undefined);
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    let failures = 0;
    await this.#ready();
    while (!this.#closed) {
      try {
        if (!this.#recovered) await this.#recover();
        await this.#readOnce();
        failures = 0;
      } catch (error) {
        if (this.#closed) return;
        this.#parts.lost(error);
        this.#recovered = false;
        await this.#ready();
        // An answer Redis refuses (not a lost connection) must not be asked again at once, forever.
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * ++failures, 2000)));
      }
    }
  }

  async #readOnce(): Promise<void> {
    const readable = [...this.#cursors].filter(([, cursor]) => cursor.id !== undefined);
    if (readable.length === 0) return this.#sleep();
    const { reader } = this.#parts;
    this.#readerId ??= Number(await reader.call('CLIENT', 'ID'));
    this.#blockedAt = this.#generation;
    const streams = [...readable.map(([topic]) => streamKey(topic)), ...readable.map(([, cursor]) => cursor.id!)];
    const reply = (await reader
      .call('XREAD', 'COUNT', BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', ...streams)
      .finally(() => (this.#blockedAt = undefined))) as [string, Entry[]][] | null;
    if (!reply) return;
    const byKey = new Map(reply);
    const read = readable.flatMap(([topic, cursor]) => {
      const entries = byKey.get(streamKey(topic));
      return entries?.length ? [{ topic, cursor, entries }] : [];
    });
    // A reader that fell behind what the stream keeps would skip the trimmed events without a word.
    const gone = await Promise.all(read.map(({ topic, cursor }) => this.#gone(topic, cursor)));
    for (const [at, { topic, cursor, entries }] of read.entries()) {
      // A topic left (or left and watched anew) while the read was out: what came for it is not for now.
      if (this.#cursors.get(topic) !== cursor) continue;
      if (gone[at]) await this.#reset(topic, cursor);
      else {
        this.#deliver(topic, entries);
        cursor.id = entries.at(-1)![0];
      }
    }
  }

  /**
   * Whether the last event read of a topic is no longer held: trimming takes the oldest first, so while it is held
   * nothing after it can have gone. Asked of every topic a read brought events for, all at once.
   */
  async #gone(topic: string, cursor: Cursor): Promise<boolean> {
    if (cursor.id === FROM_THE_START) return false;
    const held = (await this.#parts.reader.call('XRANGE', streamKey(topic), cursor.id!, cursor.id!)) as Entry[];
    return held.length === 0;
  }

  #deliver(topic: string, entries: Entry[]): void {
    const listener = this.#parts.listener();
    for (const entry of entries) {
      let event: BroadcastEvent;
      try {
        event = this.#parts.decode(entry);
      } catch (error) {
        log.error(`The broadcast event ${entry[0]} of ${topic} could not be read: ${messageOf(error)}`);
        continue;
      }
      listener?.deliver(topic, event);
    }
  }

  /** After (re)connecting: the epoch, then every watched topic's cursor, before anything is read again. */
  async #recover(): Promise<void> {
    const { reader } = this.#parts;
    // A new value each time: after a Redis that lost its data, whoever sets it first makes an epoch nobody knew.
    await reader.call('SET', EPOCH_KEY, randomHex(8), 'NX');
    const epoch = String(await reader.call('GET', EPOCH_KEY));
    const lostAll = this.#knownEpoch !== undefined && epoch !== this.#knownEpoch;
    this.#knownEpoch = epoch;
    for (const [topic, cursor] of [...this.#cursors]) {
      if (cursor.id === undefined) await this.#locate(topic, cursor, reader);
      else if (lostAll || (await this.#gone(topic, cursor))) await this.#reset(topic, cursor);
    }
    this.#recovered = true;
  }

  /** The topic's subscribers may have missed events: they are told, and it is read from the oldest event held. */
  async #reset(topic: string, cursor: Cursor): Promise<void> {
    const first = (await this.#parts.reader.call('XRANGE', streamKey(topic), '-', '+', 'COUNT', 1)) as Entry[];
    if (this.#cursors.get(topic) !== cursor) return;
    cursor.id = FROM_THE_START;
    this.#parts.listener()?.reset(topic, first[0]?.[0]);
  }

  async #locate(topic: string, cursor: Cursor, connection: Redis): Promise<void> {
    const last = (await connection.call('XREVRANGE', streamKey(topic), '+', '-', 'COUNT', 1)) as Entry[];
    if (this.#cursors.get(topic) !== cursor || cursor.id !== undefined) return;
    cursor.id = last[0]?.[0] ?? FROM_THE_START;
    this.#generation++;
    this.#interrupt();
  }

  #interrupt(): void {
    this.#wake?.();
    const id = this.#readerId;
    if (this.#blockedAt === undefined || this.#blockedAt === this.#generation || id === undefined) return;
    this.#parts.commands.call('CLIENT', 'UNBLOCK', id).catch(() => undefined);
    // The unblock may reach Redis before the read it means: ask again while the read is still the old one.
    setTimeout(() => this.#interrupt(), NUDGE_MS).unref();
  }

  #sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Once the reading connection is ready again (or the reader is closed). */
  #ready(): Promise<void> {
    const { reader } = this.#parts;
    if (reader.status === 'ready' || this.#closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        reader.off('ready', done);
        clearInterval(poll);
        resolve();
      };
      reader.once('ready', done);
      // Closing does not emit `ready`.
      const poll = setInterval(() => this.#closed && done(), 100);
      poll.unref();
    });
  }
}
