/**
 * A session as the history of a broadcast topic of its own: what happened to it, in the store's order, so that any
 * instance sharing the store rebuilds it (and keeps it current) from its events. State events are folded; the
 * others (a cancellation, a client's answer) are news for whichever instance runs the call they name.
 */
import type { JsonRpcResponse } from './json-rpc';
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';

/** Everything a session is, as a touch repeats it (the history past the retention may have lost its beginning). */
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
  /** A request named the session (said at most every quarter of the timeout, so that every instance knows). */
  | { readonly t: 'touch'; readonly snapshot: SessionSnapshot }
  | { readonly t: 'close' }
  /** Marks where the history stood when an instance began reading it. */
  | { readonly t: 'sync'; readonly nonce: string }
  | { readonly t: 'cancel'; readonly requestId: string | number; readonly reason?: string }
  | { readonly t: 'reply'; readonly response: JsonRpcResponse };

/** The topic of a session: its id is a random UUID, so no other session's. */
export function sessionTopic(sessionId: string): string {
  return `mcp-session/${sessionId}`;
}

/** When an event was stored: the milliseconds of its id (`<ms>-<seq>`). */
export function storedAt(id: string | undefined): number {
  const ms = Number(id?.slice(0, id.indexOf('-')));
  return Number.isFinite(ms) && ms > 0 ? ms : Date.now();
}

/** What a session's history says so far: enough to make it on an instance that never saw it. */
export interface SessionState {
  open?: { readonly facts: McpClientFacts; readonly principal?: string };
  level?: McpLogLevel;
  readonly subscriptions: Set<string>;
  lastSeen: number;
  closed: boolean;
}

/** Folds one stored event into `state` (news events leave it as it is). */
export function fold(state: SessionState, event: SessionEvent, at: number): void {
  switch (event.t) {
    case 'open':
      state.open = { facts: event.facts, principal: event.principal };
      state.lastSeen = at;
      break;
    case 'level':
      state.level = event.level;
      break;
    case 'subscribe':
      if (event.on) state.subscriptions.add(event.uri);
      else state.subscriptions.delete(event.uri);
      break;
    case 'touch':
      // The events before it are the truth; its snapshot stands in only for a beginning the retention trimmed.
      if (!state.open) {
        const { facts, principal, level, subscriptions } = event.snapshot;
        state.open = { facts, principal };
        state.level = level;
        for (const uri of subscriptions) state.subscriptions.add(uri);
      }
      state.lastSeen = Math.max(state.lastSeen, at);
      break;
    case 'close':
      state.closed = true;
      break;
    default:
      break;
  }
}
