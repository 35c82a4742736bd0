/**
 * The reconnection loop of a call whose SSE answer may be cut, shared by REST and MCP calls: each caller says which
 * errors are worth asking again and what counts as word from the server; the loop counts, waits and asks again.
 */
import type { Subscriber } from 'rxjs';
import { MAX_TIMER_MS } from '../runtime/timers';

export const DEFAULT_ATTEMPTS = 5;
const DEFAULT_DELAY_MS = 1000;

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
  /** Whether an error is worth asking again (an answer that ended always is). */
  readonly retriable: (error: unknown) => boolean;
}

/**
 * Opens the call, and opens it again from the last event's id after the server's `retry:` when `read` resolves with
 * the error of an answer that ended, or rejects with one `rules` take, until `attempts` failures in a row. `read`
 * resolves `undefined` once it has ended the call or handed it on. Returns the teardown.
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
    if (!resumable || !(ended || rules.retriable(error)) || ++failures > attempts) return subscriber.error(error);
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
