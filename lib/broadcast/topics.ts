/**
 * The topics of this process: `broadcast(topic)` finds or makes one, the current backplane hands each topic the
 * events it receives, and topics made only to carry events (a resumable stream's, one first heard of from
 * another instance) are forgotten once they hold nothing.
 */
import cluster from 'node:cluster';
import { logging } from '../logging/logger';
import { MemoryBackplane, type Backplane, type BackplaneListener } from './backplane';
import { Broadcaster, type BroadcasterOptions, type TopicHost } from './broadcaster';
import type { Retention } from './event-ring';

const log = logging.getLogger('rxrest.streaming');

/** `framework.broadcast.retention.*` defaults: 10,000 events, one hour. */
export const DEFAULT_RETENTION: Retention = { maxEvents: 10_000, maxAgeMs: 3_600_000 };

/** How often idle topics made only to carry events are looked for. */
const SWEEP_MS = 60_000;

/** The process's in-memory backplane: the default, and what every application on `memory` uses. */
export const inMemory = new MemoryBackplane();
let backplane: Backplane = inMemory;
let retention = DEFAULT_RETENTION;
/** What every topic reads the current backplane and retention from. */
export const topicHost: TopicHost = {
  get backplane() {
    warnIfWorkerAlone();
    return backplane;
  },
  get retention() {
    return retention;
  },
};
const topics = new Map<string, Broadcaster<unknown>>();
/** Topics nobody asked for by name: forgotten when idle. */
const carriers = new Set<string>();
let sweeper: NodeJS.Timeout | undefined;
let warnedWorkerAlone = false;

/**
 * The broadcaster of `topic` in this process (made on first use; later options are ignored). Events published
 * on it reach every subscriber of the topic on every instance sharing the backplane
 * (`framework.broadcast.backend`).
 *
 * @example
 * const chat = broadcast<ChatMessage>('chat');
 * await chat.publish({ user: 'ada', text: 'hello' });
 */
export function broadcast<T>(topic: string, options: BroadcasterOptions = {}): Broadcaster<T> {
  carriers.delete(topic);
  return topicOf(topic, options) as Broadcaster<T>;
}

/** A topic that carries events without being named by the application; forgotten once it holds nothing. */
export function carrier(topic: string): Broadcaster<unknown> {
  const known = topics.get(topic);
  if (known) return known;
  carriers.add(topic);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
  return topicOf(topic, {});
}

function topicOf(topic: string, options: BroadcasterOptions): Broadcaster<unknown> {
  let broadcaster = topics.get(topic);
  if (!broadcaster) {
    broadcaster = new Broadcaster<unknown>(topic, options, topicHost);
    topics.set(topic, broadcaster);
  }
  return broadcaster;
}

/** Forgets carrier topics that hold nothing; a producer keeps its topic busy through its subscribers' history. */
function sweep(): void {
  for (const topic of carriers) {
    if (!topics.get(topic)?.holdsNothing()) continue;
    topics.delete(topic);
    carriers.delete(topic);
  }
  if (carriers.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

const listener: BackplaneListener = {
  deliver: (topic, event) => carrier(topic).deliver(event),
  reset: (topic, oldest) => topics.get(topic)?.reset(oldest),
  resetAll: () => {
    for (const topic of topics.values()) topic.reset(undefined);
  },
};
backplane.start(listener);

/** In a cluster worker, the in-memory backplane reaches only that worker's subscribers: said once, at first use. */
function warnIfWorkerAlone(): void {
  if (warnedWorkerAlone || !cluster.isWorker || backplane.backend !== 'memory') return;
  warnedWorkerAlone = true;
  log.warn(
    'broadcast(): with framework.http.workers above 1 and the in-memory backend, events reach only the subscribers of the worker that publishes them; set framework.broadcast.backend=redis-streams (or redis)',
  );
}

/**
 * Makes `next` the process's backplane, with `retention` for every topic (the application does, from
 * `framework.broadcast.*`); returns how to go back to the one before.
 */
export function useBackplane(next: Backplane, kept: Retention = DEFAULT_RETENTION): () => void {
  const previous = { backplane, retention };
  backplane = next;
  retention = kept;
  next.start(listener);
  return () => {
    if (backplane !== next) return;
    backplane = previous.backplane;
    retention = previous.retention;
  };
}
