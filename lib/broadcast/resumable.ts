/** Streams that outlive their client: run once, while anyone anywhere reads them and for a grace period after. */
import { from } from 'rxjs/internal/observable/from';
import { concatMap } from 'rxjs/internal/operators/concatMap';
import { materialize } from 'rxjs/internal/operators/materialize';
import type { ObservableInput, ObservableNotification, Subscription } from 'rxjs';
import { parseDuration } from '../config/duration';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { currentTopics } from './application-scope';
import { applicationTopic } from './framework-topics';
import { backplaneUnavailable, type Outgoing } from './backplane';
import type { BroadcastTopics } from './broadcast-topics';
import { unref } from '../runtime/timers';

const log = logging.getLogger('rxrest.streaming');

/** How a resumable stream ended: its source completed, failed, or was cancelled (nobody read it, or by hand). */
export type ResumableEnd = 'done' | 'error' | 'cancelled';

export interface ResumableOptions {
  /**
   * How long the source goes on with nobody reading it anywhere (milliseconds, or text such as `'30s'`;
   * default 30 s). It is also the time a client has to connect after the start.
   */
  readonly grace?: number | string;
}

/** A running resumable stream, in the process that started it. */
export interface ResumableStream {
  readonly key: string;
  /** Settles with how the stream ended, once its end event is stored. */
  readonly ended: Promise<ResumableEnd>;
  /** Stops the source; the stream ends with `event: cancelled`. */
  cancel(): void;
}

const DEFAULT_GRACE_MS = 30_000;
/** How often a producer says it runs (readers' instances take its silence for its process's death). */
const HEARTBEAT_MS = 1000;
/** Waits between attempts to store an item while the backplane cannot: 100 ms, doubling up to 2 s. */
const retryDelay = (attempt: number): number => Math.min(100 * 2 ** attempt, 2000);

/** One source being stored item by item, in order, each stored before the next is taken. */
class Producer implements ResumableStream {
  readonly ended: Promise<ResumableEnd>;
  #end: (end: ResumableEnd) => void = () => undefined;
  #subscription: Subscription | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #items = 0;
  #stopped = false;

  constructor(
    readonly key: string,
    readonly topics: BroadcastTopics,
    readonly graceMs: number,
    readonly oversized: ((item: unknown) => unknown) | undefined,
  ) {
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  start(source: ObservableInput<unknown>): void {
    // Notifications, not values: a failure waits behind the items before it.
    this.#subscription = from(source)
      .pipe(
        materialize(),
        concatMap((notification) => this.#take(notification)),
      )
      .subscribe({
        error: (error: unknown) => {
          log.error(`resumable('${this.key}'): an item could not be stored after ${this.#items} items`, error);
          void this.#finish('error');
        },
      });
    const every = Math.max(50, Math.min(1000, this.graceMs / 4));
    this.#watchdog = unref(setInterval(() => void this.#checkReaders(), every));
    this.#heartbeat = unref(setInterval(() => this.topics.backplane.keepAlive(this.key, true), HEARTBEAT_MS));
  }

  #take(notification: ObservableNotification<unknown>): Promise<void> {
    if (notification.kind === 'N') return this.#storeItem(notification.value);
    if (notification.kind === 'E')
      log.error(`resumable('${this.key}'): the source failed after ${this.#items} items`, notification.error);
    return this.#finish(notification.kind === 'C' ? 'done' : 'error');
  }

  cancel(): void {
    void this.#finish('cancelled');
  }

  /** Ends now: the source is stopped and the end event stored (tried once when `once`, as at shutdown). */
  async #finish(end: ResumableEnd, once = false): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#watchdog);
    this.#subscription?.unsubscribe();
    try {
      await this.#store({ event: end, data: { items: this.#items } }, once);
    } catch (error) {
      log.error(`resumable('${this.key}'): its end (${end}) could not be stored`, error);
    }
    // Only now: had the end not been stored, the readers' instances store one when the heartbeat stops.
    clearInterval(this.#heartbeat);
    this.topics.backplane.keepAlive(this.key, false);
    this.topics.running(this.key, undefined);
    this.#end(end);
  }

  /** At shutdown: one attempt at storing the end. */
  stop(): Promise<void> {
    return this.#finish('cancelled', true);
  }

  /** An item past `framework.broadcast.max-event-size` is stored as what `oversized` makes of it (undefined: none). */
  async #storeItem(item: unknown): Promise<void> {
    try {
      await this.#store({ data: item });
    } catch (error) {
      if (!this.oversized || !(error instanceof WebApplicationException && error.status === 413)) throw error;
      const replaced = this.oversized(item);
      if (replaced !== undefined) await this.#store({ data: replaced });
    }
  }

  /** Publishes, trying again while the backplane answers 503 (Redis unreachable). */
  async #store(outgoing: Omit<Outgoing, 'json' | 'bytes'>, once = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.topics.publish(this.key, outgoing, undefined);
        if (outgoing.event === undefined) this.#items++;
        return;
      } catch (error) {
        const retriable = error instanceof WebApplicationException && error.status === 503;
        if (!retriable || once || (this.#stopped && outgoing.event === undefined)) throw error;
        await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
      }
    }
  }

  async #checkReaders(): Promise<void> {
    try {
      if ((await this.topics.backplane.idleFor(this.key)) > this.graceMs) await this.#finish('cancelled');
    } catch {
      // Redis unreachable: nobody can be said to have left; asked again at the next check.
    }
  }
}

/**
 * Starts `source` as a resumable stream named `key` and resolves once any instance can find it (`resume(key)`).
 * Every item is stored in the topic's history (`framework.broadcast.retention.*`), in order, then an end event:
 * `done` when the source completes, `error` when it fails (the log has why), `cancelled` when nobody read it
 * for `grace`, on any instance, or when it was cancelled. Items are `{ items: n }` in the end event.
 * Rejects with a 503 problem when the backplane cannot register it (Redis unreachable).
 *
 * @example
 * \@POST @ResponseStatus(202)
 * async start(): Promise<void> {
 *   await resumable(`reports/${id}`, generateReport(), { grace: '1m' });
 * }
 */
export async function resumable<T>(
  key: string,
  source: ObservableInput<T>,
  options: ResumableOptions = {},
): Promise<ResumableStream> {
  return resumableIn(currentTopics(`resumable('${key}')`), applicationTopic(key), source, options);
}

/**
 * @internal `resumable()` in the topics of a known application (the framework's own code never guesses which);
 * `oversized` makes what is stored instead of an item past `framework.broadcast.max-event-size` (else it fails the
 * stream).
 */
export async function resumableIn<T>(
  topics: BroadcastTopics,
  key: string,
  source: ObservableInput<T>,
  options: ResumableOptions = {},
  oversized?: (item: T) => unknown,
): Promise<ResumableStream> {
  const { grace } = options;
  const graceMs = typeof grace === 'string' ? parseDuration(grace) : (grace ?? DEFAULT_GRACE_MS);
  if (graceMs === undefined || !Number.isFinite(graceMs) || graceMs < 0)
    throw new RangeError(
      `resumable('${key}'): grace must be a duration such as 30s or a number of milliseconds, got ${String(grace)}`,
    );
  const { backplane, producers } = topics;
  if (producers.has(key))
    throw new Error(`resumable('${key}'): a stream with this key is already running in this process`);
  // Held (or refused) before the stream is said to exist.
  const topic = topics.topic(key, undefined, true);
  const producer = new Producer(key, topics, graceMs, oversized as ((item: unknown) => unknown) | undefined);
  topics.running(key, producer);
  try {
    await backplane.register(key, topic.retention);
    backplane.keepAlive(key, true);
  } catch (error) {
    topics.running(key, undefined);
    throw backplaneUnavailable('The broadcast backend cannot start a stream now; try again shortly', error);
  }
  producer.start(source);
  return producer;
}
