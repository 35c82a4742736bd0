/**
 * One MCP session as an instance holds it: what its client said at `initialize`, and what it has asked for since (log
 * level, subscriptions). What it is asked is published to the store (`publish`), and what any instance published is
 * heard back (`hear`), so every instance holding the session sees the same; a cancellation or a client's answer
 * reaches whichever instance runs the call it names.
 */
import { formatSize } from '../http/size';
import { logging } from '../logging/logger';
import { utf8Length } from '../runtime/bytes';
import { idKey, INVALID_PARAMS, McpProtocolError, type JsonRpcResponse } from './json-rpc';
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';
import { fold, type SessionEvent, type SessionSnapshot, type SessionState } from './session-store';

const log = logging.getLogger('rxrest.mcp');

/** A call running for the session in this process, to cancel by its request id. */
export interface RunningCall {
  cancel(reason: string | undefined): void;
}

export class McpSession {
  /** What the session is (opened, its log level and subscriptions, when it was last used), kept as the store folds it. */
  readonly #state: SessionState;
  readonly #ended = new AbortController();
  readonly #publish: (event: SessionEvent) => Promise<unknown>;
  readonly #touchEveryMs: number;
  /** The largest event the store takes: a touch repeats the whole session, its subscriptions with it. */
  readonly #maxEventSize: number;
  /** Subscriptions sent to the store and not yet held. */
  readonly #storing = new Set<string>();
  #noticesOpen = false;
  #lastTold = 0;
  /** The session's calls running in this process, by request id (`idKey`: 1 and "1" are two). */
  readonly calls = new Map<string, RunningCall>();
  /** What waits here for the client's answers to the server's requests (sampling, elicitation), by request id. */
  readonly #awaited = new Map<string, (response: JsonRpcResponse) => void>();

  /** `state` is opened (`state.open` given). */
  constructor(
    state: SessionState,
    publish: (event: SessionEvent) => Promise<unknown>,
    touchEveryMs: number,
    maxEventSize: number,
  ) {
    this.#state = state;
    this.#publish = publish;
    this.#touchEveryMs = touchEveryMs;
    this.#maxEventSize = maxEventSize;
  }

  get facts(): McpClientFacts {
    return this.#state.open!.facts;
  }

  /** Who opened it (the principal's name): only they may use it. */
  get principal(): string | undefined {
    return this.#state.open!.principal;
  }

  get id(): string {
    return this.facts.sessionId;
  }

  /** The log level the client set (`logging/setLevel`); until then every message is sent. */
  get logLevel(): McpLogLevel | undefined {
    return this.#state.level;
  }

  setLogLevel(level: McpLogLevel): Promise<void> {
    return this.#change({ t: 'level', level });
  }

  /** Whether the client subscribed to the resource `uri` (`resources/subscribe`). */
  isSubscribed(uri: string): boolean {
    return this.#state.subscriptions.has(uri);
  }

  /**
   * Subscribes (`on`) or unsubscribes; a subscription that would make the session more than one event of the store
   * holds (`framework.broadcast.max-event-size`, what a touch repeats) is refused with invalid params: a client may
   * not grow its session without bound, one URI after another.
   */
  async subscribe(uri: string, on: boolean): Promise<void> {
    if (!on || this.#state.subscriptions.has(uri) || this.#storing.has(uri))
      return this.#change({ t: 'subscribe', uri, on });
    // The subscriptions still being stored count (those of one batch are checked before any is held), each once: one
    // heard back from the store before its publish resolved is in both.
    const subscriptions = [...new Set([...this.#state.subscriptions, ...this.#storing]), uri];
    const touch = JSON.stringify({ t: 'touch', snapshot: { ...this.#snapshot(), subscriptions } });
    if (utf8Length(touch) > this.#maxEventSize)
      throw new McpProtocolError(
        INVALID_PARAMS,
        `The session's subscriptions would pass ${formatSize(this.#maxEventSize)} (framework.broadcast.max-event-size)`,
      );
    this.#storing.add(uri);
    try {
      await this.#change({ t: 'subscribe', uri, on });
    } finally {
      this.#storing.delete(uri);
    }
  }

  /** Tells every instance of a change, and applies it here once the store holds it (a refused change leaves nothing). */
  async #change(event: SessionEvent): Promise<void> {
    await this.#publish(event);
    fold(this.#state, event, Date.now());
  }

  /** Everything the session is, as a touch repeats it. */
  #snapshot(): SessionSnapshot {
    const { facts, principal } = this;
    return { facts, principal, level: this.logLevel, subscriptions: [...this.#state.subscriptions] };
  }

  /** Cancels a call of the session, on whichever instance runs it; an unknown id is ignored, as MCP says. */
  async cancel(requestId: string | number, reason: string | undefined): Promise<void> {
    await this.#publish({ t: 'cancel', requestId, reason });
  }

  /** Hands the client's answer to what waits for it, on whichever instance that is. */
  async reply(response: JsonRpcResponse): Promise<void> {
    await this.#publish({ t: 'reply', response });
  }

  /** Waits for the client's answer to the server's request `id`; returns how to stop waiting. */
  awaitReply(id: string, take: (response: JsonRpcResponse) => void): () => void {
    this.#awaited.set(id, take);
    return () => void this.#awaited.delete(id);
  }

  /** An event of the session, published by any instance (this one too), in the store's order. */
  hear(event: SessionEvent, at: number): void {
    if (event.t === 'cancel') this.calls.get(idKey(event.requestId))?.cancel(event.reason);
    else if (event.t === 'reply') {
      const id = String(event.response.id);
      const take = this.#awaited.get(id);
      this.#awaited.delete(id);
      take?.(event.response);
    } else fold(this.#state, event, at);
  }

  /** A request named the session now; the other instances are told, at most every quarter of the timeout. */
  touch(now = Date.now()): void {
    this.#state.lastSeen = now;
    if (now - this.#lastTold < this.#touchEveryMs) return;
    this.#lastTold = now;
    this.#publish({ t: 'touch', snapshot: this.#snapshot() }).catch((error: unknown) =>
      log.debug(`MCP session ${this.id}: its use could not be stored: ${String(error)}`),
    );
  }

  /** Whether a call of the session runs here, or its notices stream is open here. */
  get busy(): boolean {
    return this.calls.size > 0 || this.#noticesOpen;
  }

  /** How long the session has been idle at `now`: no request, no call running here, no notices stream open. */
  idleFor(now = Date.now()): number {
    return this.busy ? 0 : now - this.#state.lastSeen;
  }

  /**
   * Takes the session's one notices stream (`GET`) on this instance: how to give it back (once; later calls do nothing,
   * so a stream ended twice never frees the next one's), `undefined` when it is taken.
   */
  openNotices(): (() => void) | undefined {
    if (this.#noticesOpen) return undefined;
    this.#noticesOpen = true;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#noticesOpen = false;
      this.touch();
    };
  }

  /** Aborted once the session is over (deleted or expired): its streams end then. */
  get ended(): AbortSignal {
    return this.#ended.signal;
  }

  /**
   * Ends the session here: its streams end, and its running calls are cancelled unless `keepCalls` (at shutdown the
   * broadcast store ends them, as it ends every resumable stream, and their clients are told).
   */
  end(keepCalls = false): void {
    if (!keepCalls) for (const call of [...this.calls.values()]) call.cancel('session ended');
    this.#ended.abort();
  }
}
