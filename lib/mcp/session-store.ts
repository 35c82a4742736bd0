/**
 * Sessions kept in the broadcast store, each as a topic of its own: what one instance does to a session is published
 * there, and every instance holding it hears it; an instance that never saw a session reads its history (up to a
 * mark it publishes itself, so it knows where "now" is) and goes on reading live. On memory that is this process; on
 * Redis Streams, every instance sharing it.
 */
import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { backplaneUnavailable } from '../broadcast/backplane';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { Broadcaster } from '../broadcast/broadcaster';
import { FROM_START } from '../broadcast/topic';
import type { SseEvent } from '../streaming/sse-event';
import { fold, sessionTopic, storedAt, type SessionEvent, type SessionState } from './session-events';

/** What an instance hears of a session it holds: each event, with when it was stored. */
export type SessionListener = (event: SessionEvent, at: number) => void;

function topicOf(topics: BroadcastTopics, sessionId: string): Broadcaster<SessionEvent> {
  return new Broadcaster<SessionEvent>(sessionTopic(sessionId), {}, topics);
}

/**
 * Whether the store has anything of a topic, without writing to it (an id a client made up must cost nothing): what
 * this process holds of it, or, on a store of its own history (Redis Streams), what the store says.
 */
async function exists(topics: BroadcastTopics, name: string): Promise<boolean> {
  if (topics.find(name)?.newest !== undefined) return true;
  const { backplane } = topics;
  if (!backplane.durable) return false;
  try {
    return (await backplane.describe(name)).exists;
  } catch (error) {
    throw backplaneUnavailable('The sessions cannot be read now; try again shortly', error);
  }
}

function eventOf(sse: SseEvent): SessionEvent | undefined {
  // A reset notice (events lost) has no id: what is still held follows, and is folded as usual.
  return sse.id === undefined ? undefined : (sse.data as SessionEvent);
}

/** Publishes `event` of the session; resolves once the store holds it, rejects with 503 when it cannot. */
export function publishSessionEvent(topics: BroadcastTopics, sessionId: string, event: SessionEvent): Promise<string> {
  return topicOf(topics, sessionId).publish(event);
}

/** Hears the session's events from now on; returns how to stop. */
export function watchSession(topics: BroadcastTopics, sessionId: string, listener: SessionListener): Subscription {
  return topicOf(topics, sessionId)
    .subscribe()
    .subscribe((sse) => {
      const event = eventOf(sse);
      if (event) listener(event, storedAt(sse.id));
    });
}

/**
 * The session's history up to now, folded, and its later events for `listener`; `undefined` (nothing watched)
 * when the store has no such session, or only its end.
 */
export async function loadSession(
  topics: BroadcastTopics,
  sessionId: string,
  listener: SessionListener,
): Promise<{ state: SessionState; watching: Subscription } | undefined> {
  const name = sessionTopic(sessionId);
  if (!(await exists(topics, name))) return undefined;
  const topic = new Broadcaster<SessionEvent>(name, {}, topics);
  const nonce = randomUUID();
  const state: SessionState = { subscriptions: new Set(), lastSeen: 0, closed: false };
  const loaded = await new Promise<Subscription>((resolve, reject) => {
    let synced = false;
    const watching: Subscription = topics
      .topic(name, undefined)
      .join(FROM_START)
      .subscribe({
        next: (sse) => {
          const event = eventOf(sse);
          if (!event) return;
          if (synced) return listener(event, storedAt(sse.id));
          if (event.t === 'sync' && event.nonce === nonce) {
            synced = true;
            resolve(watching);
          } else fold(state, event, storedAt(sse.id));
        },
        error: reject,
      });
    // The mark is read after everything stored before it, on every backend: "now" is where it is.
    topic.publish({ t: 'sync', nonce }).catch((error: unknown) => (watching.unsubscribe(), reject(error)));
  });
  if (state.open && !state.closed) return { state, watching: loaded };
  loaded.unsubscribe();
  return undefined;
}
