/**
 * Fan-out of events to every subscriber of a topic, on every instance: `broadcast<T>(topic)` gives the process's
 * broadcaster of that topic; `publish(item)` sends it through the backplane (in memory, or Redis pub/sub), and
 * each instance hands it to its own subscribers as an SSE event with an id, keeping the last ones in a ring
 * for reconnecting clients. A subscriber is a response stream: its own byte budget and overflow policy
 * decide what a slow client costs, so it never slows the others.
 */
import cluster from 'node:cluster';
import { Observable, type Subscriber } from 'rxjs';
import { logging } from '../logging/logger';
import { multi, type Multi } from '../streaming/multi';
import { sseEvent, type SseEvent } from '../streaming/sse-event';
import { MemoryBackplane, type Backplane, type BroadcastEvent } from './backplane';

const log = logging.getLogger('rxrest.streaming');

/** Events a topic keeps for replay unless told otherwise. */
export const DEFAULT_REPLAY = 100;

export interface BroadcasterOptions {
  /** How many of the last events are kept for `Last-Event-ID` replay (default 100; 0 keeps none). */
  readonly replay?: number;
}

export interface SubscribeOptions {
  /**
   * The id of the last event the client has (the `Last-Event-ID` header an `EventSource` sends when it
   * reconnects): the events after it still in the ring are sent first; all of the ring if it has left it.
   */
  readonly lastEventId?: string;
}

/** What the hooks are told: the topic and how many subscribers it has now. */
export interface SubscriptionChange {
  readonly topic: string;
  readonly subscribers: number;
}

/** One topic's fan-out. Get it with {@link broadcast}. */
export class Broadcaster<T> {
  readonly #subscribers = new Set<Subscriber<SseEvent>>();
  readonly #ring: SseEvent[] = [];
  readonly #replay: number;
  readonly #onSubscribe: ((change: SubscriptionChange) => void)[] = [];
  readonly #onUnsubscribe: ((change: SubscriptionChange) => void)[] = [];
  #sequence = 0;

  constructor(
    readonly topic: string,
    options: BroadcasterOptions = {},
  ) {
    const replay = options.replay ?? DEFAULT_REPLAY;
    if (!Number.isInteger(replay) || replay < 0) throw new RangeError(`broadcast('${topic}'): replay must be a whole number of events, got ${replay}`);
    this.#replay = replay;
  }

  /** Subscribers on this instance now. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /**
   * Sends `item` to every subscriber of the topic, on every instance. Never throws: a backplane that cannot
   * take it logs why (and, for Redis, the readiness check is DOWN meanwhile).
   */
  publish(item: T): void {
    warnIfWorkerAlone();
    const event: BroadcastEvent = { id: `${backplane.idPrefix}${++this.#sequence}`, data: item };
    try {
      backplane.publish(this.topic, event);
    } catch (error) {
      log.error(`broadcast('${this.topic}'): publishing failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The topic's events from now on (after a replay for `lastEventId`) as SSE events with ids, for a handler to
   * return. Unsubscribed when the client goes away.
   *
   * @example
   * \@GET @Path('stream') @Produces('text/event-stream')
   * stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
   *   return chat.subscribe({ lastEventId });
   * }
   */
  subscribe(options: SubscribeOptions = {}): Multi<SseEvent> {
    return multi(
      new Observable<SseEvent>((subscriber) => {
        // Replay and joining happen in one synchronous step: no event can fall between them.
        for (const event of this.#missed(options.lastEventId)) subscriber.next(event);
        this.#subscribers.add(subscriber);
        this.#tell(this.#onSubscribe);
        return () => {
          if (this.#subscribers.delete(subscriber)) this.#tell(this.#onUnsubscribe);
        };
      }),
    );
  }

  /** Called with the new count each time a subscriber joins. */
  onSubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#onSubscribe.push(hook);
    return this;
  }

  /** Called with the new count each time a subscriber leaves (a client gone, a stream ended). */
  onUnsubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#onUnsubscribe.push(hook);
    return this;
  }

  /** Hands an event the backplane delivered to this instance's subscribers, and keeps it for replay. */
  deliver(event: BroadcastEvent): void {
    const sse = sseEvent({ id: event.id, data: event.data });
    if (this.#replay > 0) {
      this.#ring.push(sse);
      if (this.#ring.length > this.#replay) this.#ring.shift();
    }
    // A copy: a subscriber that ends (its policy, say) leaves the set while we go through it.
    for (const subscriber of [...this.#subscribers]) subscriber.next(sse);
  }

  #missed(lastEventId: string | undefined): SseEvent[] {
    if (lastEventId === undefined) return [];
    const at = this.#ring.findIndex((event) => event.id === lastEventId);
    return at < 0 ? [...this.#ring] : this.#ring.slice(at + 1);
  }

  #tell(hooks: readonly ((change: SubscriptionChange) => void)[]): void {
    for (const hook of hooks) {
      try {
        hook({ topic: this.topic, subscribers: this.#subscribers.size });
      } catch (error) {
        log.error(`broadcast('${this.topic}'): a subscription hook threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

const topics = new Map<string, Broadcaster<unknown>>();

/**
 * The broadcaster of `topic` in this process (made on first use; later options are ignored). Events published
 * on it reach every subscriber of the topic on every instance sharing the backplane
 * (`framework.broadcast.backend`).
 *
 * @example
 * const chat = broadcast<ChatMessage>('chat');
 * chat.publish({ user: 'ada', text: 'hello' });
 */
export function broadcast<T>(topic: string, options?: BroadcasterOptions): Broadcaster<T> {
  let broadcaster = topics.get(topic);
  if (!broadcaster) {
    broadcaster = new Broadcaster<unknown>(topic, options);
    topics.set(topic, broadcaster);
  }
  return broadcaster as Broadcaster<T>;
}

/** Delivers an event of `topic` to this instance; a topic first heard of here starts its ring now. */
function deliverToTopic(topic: string, event: BroadcastEvent): void {
  broadcast(topic).deliver(event);
}

let backplane: Backplane = new MemoryBackplane();
backplane.start(deliverToTopic);
let warnedWorkerAlone = false;

/** In a cluster worker, the in-memory backplane reaches only that worker's subscribers: said once, at the first publish. */
function warnIfWorkerAlone(): void {
  if (warnedWorkerAlone || !cluster.isWorker || !(backplane instanceof MemoryBackplane)) return;
  warnedWorkerAlone = true;
  log.warn('broadcast(): with framework.http.workers above 1 and the in-memory backend, events reach only the subscribers of the worker that publishes them; set framework.broadcast.backend=redis');
}

/**
 * Makes `next` the process's backplane (the application does, from `framework.broadcast.backend`); returns
 * how to go back to the one before.
 */
export function useBackplane(next: Backplane): () => void {
  const previous = backplane;
  backplane = next;
  next.start(deliverToTopic);
  return () => {
    if (backplane === next) backplane = previous;
  };
}
