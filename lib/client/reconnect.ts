/**
 * The reconnection loop of a call whose SSE answer may be cut, shared by REST and MCP calls: each caller says what
 * counts as word from the server; the loop counts, waits and asks again when the network or a gateway failed.
 */
import type { Subscriber } from 'rxjs';
import { MAX_TIMER_MS } from '../runtime/timers';
import { WebApplicationException } from '../errors/web-application-exception';
import { isNetworkFailure } from './network-failure';

export const DEFAULT_ATTEMPTS = 5;
const DEFAULT_DELAY_MS = 1000;

/** The server, or a proxy before it, is restarting or overloaded. */
const RETRIABLE_STATUSES = new Set([502, 503, 504]);

/** Only the network and a gateway are asked again: any other answer, or a fault of the client, would come again. */
function retriable(error: unknown): boolean {
  return error instanceof WebApplicationException ? RETRIABLE_STATUSES.has(error.status) : isNetworkFailure(error);
}

/** What the reader of one answer tells the loop. */
export interface Progress {
  /** Word from the server: the failures in a row count from 0 again; with an id, the next attempt resumes after it. */
  heard(id?: string): void;
  /** The server's `retry:`: the wait before the next attempt. */
  retry(milliseconds: number): void;
}

/** How a call reconnects a cut SSE answer (REST calls' `ReconnectOptions` and MCP's take it). */
export interface Reconnect {
  /** Reconnections in a row with no event between them before the call fails with the last error (default 5). */
  readonly attempts?: number;
  /** Milliseconds to wait before reconnecting when the server sent no `retry:` (default 1000). */
  readonly delay?: number;
}

export interface ReconnectRules extends Reconnect {
  /** Whether a call cut before any event id is asked again from the start (else it fails). */
  readonly fromStart: boolean;
}

/**
 * Opens the call, and opens it again from the last event's id after the server's `retry:` when `read` resolves with
 * the error of an answer that ended, or rejects with a network failure or a 502/503/504, until `attempts` failures in
 * a row. `read` resolves `undefined` once it has ended the call or handed it on. Returns the teardown.
 */
export function reconnecting(
  subscriber: Subscriber<unknown>,
  rules: ReconnectRules,
  open: (signal: AbortSignal, lastEventId: string | undefined) => Promise<Response>,
  read: (response: Response, progress: Progress) => Promise<Error | undefined> | undefined,
): () => void {
  const attempts = rules.attempts ?? DEFAULT_ATTEMPTS;
  let delay = rules.delay ?? DEFAULT_DELAY_MS;
  let lastEventId: string | undefined;
  let failures = 0;
  let aborter: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const progress: Progress = {
    heard: (id) => {
      failures = 0;
      if (id !== undefined) lastEventId = id;
    },
    // Past what a timer holds, a retry: would be taken for 1 ms: a reconnection loop instead of a long wait.
    retry: (milliseconds) => (delay = Math.min(milliseconds, MAX_TIMER_MS)),
  };
  const again = (error: unknown, ended = false): void => {
    if (subscriber.closed) return;
    const resumable = rules.fromStart || lastEventId !== undefined;
    if (!resumable || !(ended || retriable(error)) || ++failures > attempts) return subscriber.error(error);
    timer = setTimeout(attempt, delay);
  };
  const attempt = (): void => {
    aborter = new AbortController();
    open(aborter.signal, lastEventId)
      .then((response) => (subscriber.closed ? undefined : read(response, progress)))
      .then((ended) => ended && again(ended, true), again);
  };
  attempt();
  return () => {
    clearTimeout(timer);
    aborter?.abort();
  };
}
