/** The readers' side of resumable streams, on any instance: what a client missed, then live; the producer watched. */
import { Observable } from 'rxjs/internal/Observable';
import { httpProblem } from '../errors/http-problem';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { currentTopics } from './application-scope';
import { applicationTopic } from './framework-topics';
import { backplaneUnavailable, malformedEventId } from './backplane';
import type { SubscribeOptions } from './broadcaster';
import type { BroadcastTopics } from './broadcast-topics';
import { FROM_START } from './topic';
import { isEnd } from './topic-events';
import { unref } from '../runtime/timers';

/** How often an instance with readers of a stream checks that its producer still runs. */
const ABANDON_CHECK_MS = 2000;

/**
 * The resumable stream `key` for a client, on any instance: from its first item, or after `lastEventId` (what
 * it missed, then live), ending after the end event. Resolves to `undefined` when the client already has the
 * end event (answer 204: an `EventSource` stops reconnecting); rejects with a 404 problem when no stream of
 * that key is running or held.
 *
 * @example
 * \@GET @Path('{id}/events') @Produces('text/event-stream')
 * events(@RestPath() id: string, @HeaderParam('Last-Event-ID') lastEventId?: string): Promise<Multi<SseEvent> | undefined> {
 *   return resume(`reports/${id}`, { lastEventId });
 * }
 */
export async function resume(key: string, options: SubscribeOptions = {}): Promise<Multi<SseEvent> | undefined> {
  return resumeIn(currentTopics(`resume('${key}')`), applicationTopic(key), options);
}

/** @internal `resume()` in the topics of a known application (the framework's own code never guesses which). */
export async function resumeIn(
  topics: BroadcastTopics,
  key: string,
  options: SubscribeOptions = {},
): Promise<Multi<SseEvent> | undefined> {
  const { backplane } = topics;
  const { lastEventId } = options;
  if (lastEventId !== undefined && !backplane.isEventId(lastEventId)) throw malformedEventId(key);
  const remote = await backplane.describe(key).catch((error: unknown) => {
    throw backplaneUnavailable('The broadcast history cannot be read now; try again shortly', error);
  });
  const exists = remote.exists || topics.find(key)?.newest !== undefined || topics.producers.has(key);
  const endId = backplane.durable ? remote.endId : heldEnd(topics, key);
  if (!exists) throw httpProblem('RXREST_STREAM_NOT_FOUND', `No stream named ${key} is running or kept`);
  if (lastEventId !== undefined && lastEventId === endId) return undefined;
  const events = topics.topic(key, undefined, true).join(lastEventId ?? FROM_START);
  // In memory a producer dies with its readers: nothing to watch for.
  if (backplane.backend === 'memory') return events;
  return multi(
    new Observable<SseEvent>((subscriber) => {
      const release = watchProducer(topics, key);
      const subscription = events.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        release();
      };
    }),
  );
}

/** The id of the end of `key` when this process holds it (its last event). */
function heldEnd(topics: BroadcastTopics, key: string): string | undefined {
  const newest = topics.find(key)?.newest;
  return newest && isEnd(newest) ? newest.id : undefined;
}

/** While this instance reads `key`, stores its end (`event: error`) once its producer is seen gone twice in a row. */
function watchProducer(topics: BroadcastTopics, key: string): () => void {
  const { watchedProducers } = topics;
  let watch = watchedProducers.get(key);
  if (!watch) {
    let suspected = false;
    const timer = unref(
      setInterval(() => {
        // Its end heard here (pub/sub keeps no shared history to look in): nothing is lost.
        if (!topics.backplane.durable && heldEnd(topics, key) !== undefined) return;
        topics.backplane.abandoned(key, suspected).then(
          (gone) => (suspected = gone && !suspected),
          () => (suspected = false),
        );
      }, ABANDON_CHECK_MS),
    );
    watchedProducers.set(key, (watch = { readers: 0, timer }));
  }
  watch.readers++;
  return () => {
    if (--watch.readers > 0) return;
    clearInterval(watch.timer);
    watchedProducers.delete(key);
  };
}
