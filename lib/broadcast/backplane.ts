/** How broadcast events travel between instances: the contract every backplane keeps, and the in-memory one. */
import { httpProblem } from '../errors/http-problem';
import type { WebApplicationException } from '../errors/web-application-exception';
import { IdClock, isStreamId } from './event-ids';
import type { Retention } from './event-ring';
import { RecentKeys } from './recent-keys';
import type { BroadcastEvent } from './topic-events';

/** `framework.broadcast.backend`. */
export type BroadcastBackend = 'memory' | 'redis' | 'redis-streams';

/** A 503 problem with `Retry-After`: the backplane cannot store or read events now (Redis unreachable). */
export function backplaneUnavailable(detail: string, cause: unknown): WebApplicationException {
  return httpProblem('RXREST_BROADCAST_UNAVAILABLE', detail, { cause, headers: { 'retry-after': '1' } });
}

/** A `Last-Event-ID` that no event of the backplane can have: answered 400 rather than read as "everything". */
export function malformedEventId(topic: string): WebApplicationException {
  return httpProblem(
    'RXREST_MALFORMED_LAST_EVENT_ID',
    `The Last-Event-ID for ${topic} is not an event id (<milliseconds>-<sequence>)`,
  );
}

export interface Outgoing {
  readonly data: unknown;
  /** `data` as the application's JSON mapper writes it, and its UTF-8 `bytes`. */
  readonly json: string;
  readonly bytes: number;
  /** The SSE event name (the end of a resumable stream); absent for items. */
  readonly event?: string;
  readonly idempotencyKey?: string;
  /** The publishing span's context (W3C `traceparent`), when traced: deliveries link to it on every instance. */
  readonly trace?: string;
}

/** A page of a topic's durable history, oldest first; `reset` when the id asked for is no longer held. */
export interface HistoryPage {
  readonly events: readonly BroadcastEvent[];
  readonly reset?: { readonly oldest: string | undefined };
  /** The page came back full: more may follow. */
  readonly more: boolean;
}

/** What the backplane knows of a topic beyond this process: whether it has history or a producer, and its end. */
export interface TopicState {
  readonly exists: boolean;
  readonly endId: string | undefined;
}

export interface BackplaneListener {
  deliver(topic: string, event: BroadcastEvent): void;
  /** Events may have been lost for this instance's subscribers of `topic`; `oldest` is the oldest id held now. */
  reset(topic: string, oldest: string | undefined): void;
  /** Events of any topic may have been lost for this instance (a pub/sub outage): what it holds is dropped. */
  resetAll(): void;
}

export interface Backplane {
  readonly backend: BroadcastBackend;
  /** The topics' history lives in the backplane (Redis Streams), not in each process: ids are the history's own. */
  readonly durable: boolean;
  /** Whether events reach the other instances now (for the readiness check). */
  readonly connected: boolean;
  start(listener: BackplaneListener): void;
  /** Sends (and, when durable, stores) an event; resolves with its id once done, rejects when it could not be. */
  publish(topic: string, outgoing: Outgoing, retention: Retention): Promise<string>;
  /** Whether `id` has the form of this backplane's event ids (a `Last-Event-ID` may be anything a client sends). */
  isEventId(id: string): boolean;
  /** Durable only: up to `count` events after `after` (undefined, or no longer held: from the oldest held). */
  history(topic: string, after: string | undefined, count: number): Promise<HistoryPage>;
  describe(topic: string): Promise<TopicState>;
  /** This instance has subscribers of `topic` now, or none left; with `presence`, the other instances are told too. */
  watch(topic: string, watching: boolean, presence: boolean): void;
  /** A producer starts on `topic`: it exists from now on, and counts as watched now. */
  register(topic: string, retention: Retention): Promise<void>;
  /** Milliseconds since any instance last had a subscriber of `topic` (0 while one has). */
  idleFor(topic: string): Promise<number>;
  /** A producer says it still runs (every second), or (`false`) that it has ended. */
  keepAlive(topic: string, running: boolean): void;
  /** `topic` is over (an ended MCP session): a durable backend lets its history go within `ms`. */
  expire(topic: string, ms: number): void;
  /**
   * Whether the producer of `topic` stopped saying it runs and the topic has no end: its process is gone. With
   * `confirm`, an `event: error` is stored (once, whoever asks).
   */
  abandoned(topic: string, confirm: boolean): Promise<boolean>;
  close(): Promise<void>;
}

/** One process: an event published is delivered at once, synchronously, in publishing order. */
export class MemoryBackplane implements Backplane {
  readonly backend = 'memory';
  readonly durable = false;
  readonly connected = true;
  /** One clock for every topic: ids increase within each topic, and no map grows with the topics. */
  readonly #clock = new IdClock();
  readonly #keys = new RecentKeys();
  /** Resumable streams' topics with subscribers here, and whether a producer started on each (registered). */
  readonly #watched = new Map<string, boolean>();
  /**
   * Registered topics without a subscriber here (kept after their last subscriber left, their grace counted), and
   * since when, oldest first: forgetting the old ones stops at the first too young, not going through all.
   */
  readonly #unwatched = new Map<string, number>();
  #listener: BackplaneListener | undefined;

  start(listener: BackplaneListener): void {
    this.#listener = listener;
  }

  publish(topic: string, outgoing: Outgoing, retention: Retention): Promise<string> {
    const seen = this.#keys.get(topic, outgoing.idempotencyKey);
    if (seen !== undefined) return Promise.resolve(seen);
    const id = this.#clock.next();
    this.#keys.set(topic, outgoing.idempotencyKey, id, retention);
    const { data, event, trace, bytes } = outgoing;
    this.#listener?.deliver(topic, { id, data, event, trace, bytes });
    return Promise.resolve(id);
  }

  readonly isEventId = isStreamId;

  history(): Promise<HistoryPage> {
    return Promise.reject(new Error('the in-memory backplane keeps no history of its own'));
  }

  /** Nothing beyond this process: a stream whose history this process let go is unknown, not one to wait for. */
  describe(): Promise<TopicState> {
    return Promise.resolve({ exists: false, endId: undefined });
  }

  watch(topic: string, watching: boolean, presence: boolean): void {
    if (!presence) return;
    const registered = this.#watched.get(topic) ?? this.#unwatched.has(topic);
    this.#watched.delete(topic);
    this.#unwatched.delete(topic);
    // A plain topic is forgotten with its last subscriber: topics come and go by the thousand (chat rooms).
    if (watching) this.#watched.set(topic, registered);
    else if (registered) this.#unwatched.set(topic, Date.now());
  }

  register(topic: string, retention: Retention): Promise<void> {
    if (this.#watched.has(topic)) this.#watched.set(topic, true);
    else {
      this.#unwatched.delete(topic);
      this.#unwatched.set(topic, Date.now());
    }
    // Topics of streams long over are forgotten as new ones start.
    const cutoff = Date.now() - retention.maxAgeMs;
    for (const [old, since] of this.#unwatched) {
      if (retention.maxAgeMs <= 0 || since >= cutoff) break;
      this.#unwatched.delete(old);
    }
    return Promise.resolve();
  }

  /** Milliseconds since the topic last had a subscriber here (0 while it has one; infinite if never known). */
  idleFor(topic: string): Promise<number> {
    if (this.#watched.has(topic)) return Promise.resolve(0);
    const since = this.#unwatched.get(topic);
    return Promise.resolve(since === undefined ? Number.POSITIVE_INFINITY : Date.now() - since);
  }

  /** A producer in memory dies with the process that holds its readers; its history is the process's own. */
  keepAlive(): void {}

  expire(): void {}

  abandoned(): Promise<boolean> {
    return Promise.resolve(false);
  }

  async close(): Promise<void> {}
}
