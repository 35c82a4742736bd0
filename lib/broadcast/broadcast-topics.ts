/**
 * The broadcast topics of one application. A topic is held while it has a subscriber here or events kept in this
 * process, and let go as soon as it has neither: topics made by the thousand (a chat room each) cost nothing once left.
 */
import { isClusterWorker } from '../runtime/node-builtins';
import { httpProblem } from '../errors/http-problem';
import { formatSize } from '../http/size';
import type { JsonMapper } from '../json/json-mapper';
import { logging } from '../logging/logger';
import type { Backplane, BackplaneListener, Outgoing } from './backplane';
import { keeps, type Retention } from './event-ring';
import { keptKey } from './recent-keys';
import { HistoryBudget } from './history-budget';
import { Topic, type TopicHost } from './topic';
import { UnreadTopics } from './unread-topics';
import { utf8Length } from '../runtime/bytes';
import { unref } from '../runtime/timers';

const log = logging.getLogger('rxrest.streaming');

/** `framework.broadcast.*` as an application's topics use them (`maxTotalBytes`: across all topics). */
export interface BroadcastSettings {
  readonly retention: Retention;
  readonly maxEventSize: number;
  readonly maxTopics: number;
  readonly maxTotalBytes: number;
}

/** How often topics whose events have all passed their age are looked for. */
const SWEEP_MS = 60_000;

const tooManyTopics = (topic: string, max: number) =>
  httpProblem(
    'RXREST_BROADCAST_TOO_MANY_TOPICS',
    `broadcast('${topic}'): this instance holds ${max} topics already (framework.broadcast.max-topics); try again shortly`,
    { headers: { 'retry-after': '1' } },
  );

const eventTooLarge = (topic: string, bytes: number, max: number) =>
  httpProblem(
    'RXREST_BROADCAST_EVENT_TOO_LARGE',
    `broadcast('${topic}'): an event of ${bytes} bytes passes framework.broadcast.max-event-size (${formatSize(max)})`,
  );

export class BroadcastTopics implements TopicHost {
  readonly backplane: Backplane;
  readonly retention: Retention;
  readonly maxEventSize: number;
  readonly history: HistoryBudget;
  readonly #maxTopics: number;
  readonly #json: JsonMapper;
  readonly #topics = new Map<string, Topic>();
  /** Unread and no stream of them running here: the oldest gives way to a new topic past the limit. */
  readonly #unread = new UnreadTopics<Topic>();
  /** Unread, stream or not: those past their age are let go first at the limit, without going through all. */
  readonly #unwatched = new UnreadTopics<Topic>();
  #made = 0;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #warnedFull = false;
  #warnedWorkerAlone = false;
  readonly #producers = new Map<string, { stop(): Promise<void> }>();
  /** Per resumable stream read here, the check that its producer still runs (see `resume`). */
  readonly watchedProducers = new Map<string, { readers: number; timer: ReturnType<typeof setInterval> }>();

  readonly listener: BackplaneListener = {
    deliver: (topic, event) => {
      const held = this.#topics.get(topic);
      if (held) return held.deliver(event);
      // Kept for those who resume here (pub/sub only: in memory the publish made it, Redis Streams keeps it).
      if (this.backplane.backend !== 'redis' || !keeps(this.retention)) return;
      const made = this.#make(topic, undefined);
      if (made) made.deliver(event);
      else this.#warnFull(topic);
    },
    reset: (topic, oldest) => this.#topics.get(topic)?.reset(oldest),
    resetAll: () => {
      for (const topic of [...this.#topics.values()]) topic.reset(undefined);
    },
  };

  constructor(backplane: Backplane, settings: BroadcastSettings, json: JsonMapper) {
    this.backplane = backplane;
    this.retention = settings.retention;
    this.maxEventSize = settings.maxEventSize;
    this.history = new HistoryBudget(settings.maxTotalBytes);
    this.#maxTopics = settings.maxTopics;
    this.#json = json;
  }

  find(name: string): Topic | undefined {
    return this.#topics.get(name);
  }

  /** Held from now on (`presence`: a resumable stream's); a 503 problem when this process holds as many as it may. */
  topic(name: string, replay: number | undefined, presence = false): Topic {
    this.#warnIfWorkerAlone();
    const topic = this.#topics.get(name) ?? this.#make(name, replay);
    if (!topic) throw tooManyTopics(name, this.#maxTopics);
    if (presence) topic.presence = true;
    return topic;
  }

  /** Refused past `max-event-size` before anything is sent or kept; a topic that keeps history here is held first. */
  publish(name: string, outgoing: Omit<Outgoing, 'json' | 'bytes'>, replay: number | undefined): Promise<string> {
    try {
      this.#warnIfWorkerAlone();
      const json = this.#json.writeValueAsString(outgoing.data) ?? 'null';
      const bytes = utf8Length(json);
      if (bytes > this.maxEventSize) throw eventTooLarge(name, bytes, this.maxEventSize);
      // A topic that keeps history here is held (made now, or refused) so the event has a place.
      let topic = this.#topics.get(name);
      if (!topic && !this.backplane.durable && keeps(this.retentionOf(replay))) topic = this.topic(name, replay);
      // A literal of one shape, not a spread of the caller's: a publish a thousand times a second allocates less.
      const { data, event, trace } = outgoing;
      const idempotencyKey = keptKey(outgoing.idempotencyKey);
      const retention = topic?.retention ?? this.retentionOf(replay);
      return this.backplane.publish(name, { data, event, idempotencyKey, trace, json, bytes }, retention);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  idle(topic: Topic): void {
    if (this.#topics.get(topic.name) === topic) this.#letGo(topic);
  }

  /** Places a topic held among those that may give way to a new one (or takes it out of them). */
  changed(topic: Topic): void {
    if (this.#topics.get(topic.name) !== topic) return;
    const since = topic.unreadSince;
    this.#unread.set(topic, this.#producers.has(topic.name) ? undefined : since);
    this.#unwatched.set(topic, topic.unread ? (since ?? Number.NEGATIVE_INFINITY) : undefined);
  }

  get producers(): ReadonlyMap<string, { stop(): Promise<void> }> {
    return this.#producers;
  }

  /** A resumable stream runs here from now on (its topic never gives way to another meanwhile), or (undefined) no more. */
  running(key: string, producer: { stop(): Promise<void> } | undefined): void {
    if (producer) this.#producers.set(key, producer);
    else this.#producers.delete(key);
    const topic = this.#topics.get(key);
    if (topic) this.changed(topic);
  }

  /** Stops this process's resumable streams (each with its end stored if the backplane takes it) and the timers. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const { timer } of this.watchedProducers.values()) clearInterval(timer);
    this.watchedProducers.clear();
    await Promise.all([...this.#producers.values()].map((producer) => producer.stop()));
  }

  /** The application's retention, with a topic's own `replay` when it has one. */
  retentionOf(replay: number | undefined): Retention {
    return replay === undefined ? this.retention : { ...this.retention, maxEvents: replay };
  }

  #make(name: string, replay: number | undefined): Topic | undefined {
    if (this.#topics.size >= this.#maxTopics) this.#reap();
    if (this.#topics.size >= this.#maxTopics && !this.#makeRoom()) return undefined;
    const topic = new Topic(name, this.retentionOf(replay), this, ++this.#made);
    this.#topics.set(name, topic);
    this.changed(topic);
    if (this.retention.maxAgeMs > 0) this.#sweeper ??= unref(setInterval(() => this.#sweep(), SWEEP_MS));
    return topic;
  }

  /** Finished streams by the thousand (a stranger's jobs) must not hold the process's topics: the oldest gives way. */
  #makeRoom(): boolean {
    const oldest = this.#unread.oldest();
    if (!oldest) return false;
    log.debug(
      `broadcast: the history of ${oldest.name} is let go to hold a new topic (framework.broadcast.max-topics)`,
    );
    oldest.forget();
    return !this.#topics.has(oldest.name);
  }

  #sweep(): void {
    for (const topic of this.#topics.values()) if (topic.holdsNothing()) this.#letGo(topic);
  }

  /** `#sweep` from the oldest unread topic up to the first still in its age: not a look at every topic held. */
  #reap(): void {
    const { maxAgeMs } = this.retention;
    const cutoff = maxAgeMs > 0 ? Date.now() - maxAgeMs : Number.NEGATIVE_INFINITY;
    for (;;) {
      const topic = this.#unwatched.oldest();
      const since = this.#unwatched.oldestSince();
      if (!topic || since === undefined || (since !== Number.NEGATIVE_INFINITY && since >= cutoff)) return;
      if (!topic.holdsNothing()) return;
      this.#letGo(topic);
    }
  }

  #letGo(topic: Topic): void {
    this.#topics.delete(topic.name);
    this.#unread.set(topic, undefined);
    this.#unwatched.set(topic, undefined);
  }

  /** In a cluster worker, the in-memory backplane reaches only that worker's subscribers: said once, at first use. */
  #warnIfWorkerAlone(): void {
    if (this.#warnedWorkerAlone) return;
    this.#warnedWorkerAlone = true;
    if (this.backplane.backend !== 'memory' || !isClusterWorker()) return;
    log.warn(
      'broadcast(): with framework.http.workers above 1 and the in-memory backend, events reach only the subscribers of the worker that publishes them; set framework.broadcast.backend=redis-streams (or redis)',
    );
  }

  #warnFull(topic: string): void {
    if (this.#warnedFull) return;
    this.#warnedFull = true;
    log.warn(
      `broadcast: events of ${topic} (and maybe other topics) are not kept here: this instance holds framework.broadcast.max-topics (${this.#maxTopics}) topics already`,
    );
  }
}
