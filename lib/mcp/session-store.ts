/** Sessions in the broadcast store, each the history of its own topic, read up to a mark the reader publishes. */
import type { Subscription } from 'rxjs';
import { backplaneUnavailable } from '../broadcast/backplane';
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { Broadcaster } from '../broadcast/broadcaster';
import { FROM_START } from '../broadcast/topic';
import type { SseEvent } from '../streaming/sse-event';
import type { JsonRpcResponse } from './json-rpc';
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';

/** Everything a session is, as a touch repeats it (the retention may have trimmed the history's beginning). */
export interface SessionSnapshot {
  readonly facts: McpClientFacts;
  readonly principal?: string;
  readonly level?: McpLogLevel;
  readonly subscriptions: readonly string[];
}

export type SessionEvent =
  | { readonly t: 'open'; readonly facts: McpClientFacts; readonly principal?: string }
  | { readonly t: 'level'; readonly level: McpLogLevel }
  | { readonly t: 'subscribe'; readonly uri: string; readonly on: boolean }
  | { readonly t: 'touch'; readonly snapshot: SessionSnapshot }
  | { readonly t: 'close' }
  /** Marks where the history stood when an instance began reading it. */
  | { readonly t: 'sync'; readonly nonce: string }
  | { readonly t: 'cancel'; readonly requestId: string | number; readonly reason?: string }
  | { readonly t: 'reply'; readonly response: JsonRpcResponse };

/** The milliseconds of a stored event's id (`<ms>-<seq>`). */
function storedAt(id: string | undefined): number {
  const ms = Number(id?.slice(0, id.indexOf('-')));
  return Number.isFinite(ms) && ms > 0 ? ms : Date.now();
}

export interface SessionState {
  open?: { readonly facts: McpClientFacts; readonly principal?: string };
  level?: McpLogLevel;
  readonly subscriptions: Set<string>;
  lastSeen: number;
  closed: boolean;
}

/** Cancellations and replies leave `state` as it is. */
export function fold(state: SessionState, event: SessionEvent, at: number): void {
  if (event.t === 'open') {
    state.open = { facts: event.facts, principal: event.principal };
    state.lastSeen = at;
  } else if (event.t === 'level') state.level = event.level;
  else if (event.t === 'subscribe' && event.on) state.subscriptions.add(event.uri);
  else if (event.t === 'subscribe') state.subscriptions.delete(event.uri);
  else if (event.t === 'close') state.closed = true;
  else if (event.t === 'touch') {
    // The events before it are the truth; its snapshot stands in only for a beginning the retention trimmed.
    if (!state.open) {
      const { facts, principal, level, subscriptions } = event.snapshot;
      state.open = { facts, principal };
      state.level = level;
      for (const uri of subscriptions) state.subscriptions.add(uri);
    }
    state.lastSeen = Math.max(state.lastSeen, at);
  }
}

export type SessionListener = (event: SessionEvent, at: number) => void;

/** The topic of a session: its id is a random UUID, so no other session's. */
function topicOf(topics: BroadcastTopics, sessionId: string): Broadcaster<SessionEvent> {
  return new Broadcaster<SessionEvent>(`mcp-session/${sessionId}`, {}, topics);
}

/** Whether the store has anything of a topic, without writing to it: an id a client made up must cost nothing. */
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

/** Long enough for the instances holding a session to hear its end live: a flood must not stay the retention's hour. */
export const ENDED_KEPT_MS = 60_000;

/** Once the session's end is stored. */
export function forgetSession(topics: BroadcastTopics, sessionId: string): void {
  const name = topicOf(topics, sessionId).topic;
  topics.find(name)?.forget();
  topics.backplane.expire(name, ENDED_KEPT_MS);
}

/** Resolves once the store holds `event`, rejects with 503 when it cannot. */
export function publishSessionEvent(topics: BroadcastTopics, sessionId: string, event: SessionEvent): Promise<string> {
  return topicOf(topics, sessionId).publish(event);
}

export function watchSession(topics: BroadcastTopics, sessionId: string, listener: SessionListener): Subscription {
  return topicOf(topics, sessionId)
    .subscribe()
    .subscribe((sse) => {
      const event = eventOf(sse);
      if (event) listener(event, storedAt(sse.id));
    });
}

/** The session's history folded, its later events for `listener`; `undefined` when unknown or ended. */
export async function loadSession(
  topics: BroadcastTopics,
  sessionId: string,
  listener: SessionListener,
): Promise<{ state: SessionState; watching: Subscription } | undefined> {
  const topic = topicOf(topics, sessionId);
  if (!(await exists(topics, topic.topic))) return undefined;
  const nonce = crypto.randomUUID();
  const state: SessionState = { subscriptions: new Set(), lastSeen: 0, closed: false };
  const loaded = await new Promise<Subscription>((resolve, reject) => {
    let synced = false;
    const watching: Subscription = topics
      .topic(topic.topic, undefined)
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
