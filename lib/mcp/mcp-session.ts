/** One MCP session as an instance holds it: changes are published to the store and heard back by every instance. */
import type { BroadcastTopics } from '../broadcast/broadcast-topics';
import { formatSize } from '../http/size';
import { logging } from '../logging/logger';
import { utf8Length } from '../runtime/bytes';
import { idKey, INVALID_PARAMS, McpProtocolError, type JsonRpcResponse } from './json-rpc';
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';
import { fold, publishSessionEvent, type SessionEvent, type SessionSnapshot, type SessionState } from './session-store';

const log = logging.getLogger('rxrest.mcp');

export class McpSession {
  readonly #state: SessionState;
  readonly #ended = new AbortController();
  /** The store, whose events are at most `maxEventSize`: a touch repeats the whole session in one. */
  readonly #topics: BroadcastTopics;
  readonly #touchEveryMs: number;
  /** Subscriptions sent to the store and not yet held. */
  readonly #storing = new Set<string>();
  /** How the one notices stream here is given back, while it is held. */
  #notices: (() => void) | undefined;
  #lastTold = 0;
  /** The session's calls running in this process, by `idKey`. */
  readonly calls = new Map<string, { cancel(reason: string | undefined): void }>();
  /** What waits here for the client's answers to the server's requests (sampling, elicitation). */
  readonly #awaited = new Map<string, (response: JsonRpcResponse) => void>();

  /** `state.open` is set. */
  constructor(state: SessionState, topics: BroadcastTopics, touchEveryMs: number) {
    this.#state = state;
    this.#topics = topics;
    this.#touchEveryMs = touchEveryMs;
  }

  #publish(event: SessionEvent): Promise<string> {
    return publishSessionEvent(this.#topics, this.id, event);
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

  /** Until the client sets one (`logging/setLevel`), every message is sent. */
  get logLevel(): McpLogLevel | undefined {
    return this.#state.level;
  }

  setLogLevel(level: McpLogLevel): Promise<void> {
    return this.#change({ t: 'level', level });
  }

  isSubscribed(uri: string): boolean {
    return this.#state.subscriptions.has(uri);
  }

  /** A subscription making the session larger than one event of the store is refused: it may not grow unbounded. */
  async subscribe(uri: string, on: boolean): Promise<void> {
    if (!on || this.#state.subscriptions.has(uri) || this.#storing.has(uri))
      return this.#change({ t: 'subscribe', uri, on });
    // Those still being stored count (a batch is checked before any is held), once: one heard back early is in both.
    const subscriptions = [...new Set([...this.#state.subscriptions, ...this.#storing]), uri];
    const touch = JSON.stringify({ t: 'touch', snapshot: { ...this.#snapshot(), subscriptions } });
    const { maxEventSize } = this.#topics;
    if (utf8Length(touch) > maxEventSize)
      throw new McpProtocolError(
        INVALID_PARAMS,
        `The session's subscriptions would pass ${formatSize(maxEventSize)} (framework.broadcast.max-event-size)`,
      );
    this.#storing.add(uri);
    try {
      await this.#change({ t: 'subscribe', uri, on });
    } finally {
      this.#storing.delete(uri);
    }
  }

  /** Applied here once the store holds it: a refused change leaves nothing. */
  async #change(event: SessionEvent): Promise<void> {
    await this.#publish(event);
    fold(this.#state, event, Date.now());
  }

  #snapshot(): SessionSnapshot {
    const { facts, principal } = this;
    return { facts, principal, level: this.logLevel, subscriptions: [...this.#state.subscriptions] };
  }

  /** Cancels a call of the session, on whichever instance runs it; an unknown id is ignored, as MCP says. */
  async cancel(requestId: string | number, reason: string | undefined): Promise<void> {
    await this.#publish({ t: 'cancel', requestId, reason });
  }

  /** Hands the client's answer to what waits for it, on whichever instance. */
  async reply(response: JsonRpcResponse): Promise<void> {
    await this.#publish({ t: 'reply', response });
  }

  /** Returns how to stop waiting. */
  awaitReply(id: string, take: (response: JsonRpcResponse) => void): () => void {
    this.#awaited.set(id, take);
    return () => void this.#awaited.delete(id);
  }

  /** An event published by any instance (this one too), in the store's order. */
  hear(event: SessionEvent, at: number): void {
    if (event.t === 'cancel') this.calls.get(idKey(event.requestId))?.cancel(event.reason);
    else if (event.t === 'reply') {
      const id = String(event.response.id);
      const take = this.#awaited.get(id);
      this.#awaited.delete(id);
      take?.(event.response);
    } else fold(this.#state, event, at);
  }

  /** A request named the session; the other instances are told at most every quarter of the timeout. */
  touch(now = Date.now()): void {
    this.#state.lastSeen = now;
    if (now - this.#lastTold < this.#touchEveryMs) return;
    this.#lastTold = now;
    this.#publish({ t: 'touch', snapshot: this.#snapshot() }).catch((error: unknown) =>
      log.debug(`MCP session ${this.id}: its use could not be stored: ${String(error)}`),
    );
  }

  get busy(): boolean {
    return this.calls.size > 0 || this.#notices !== undefined;
  }

  idleFor(now = Date.now()): number {
    return this.busy ? 0 : now - this.#state.lastSeen;
  }

  /** Takes the one notices stream here: how to give it back, once (a stream ended twice never frees the next one's). */
  openNotices(): (() => void) | undefined {
    if (this.#notices) return undefined;
    const release = () => {
      if (this.#notices !== release) return;
      this.#notices = undefined;
      this.touch();
    };
    return (this.#notices = release);
  }

  /** Aborted once the session is over: its streams end then. */
  get ended(): AbortSignal {
    return this.#ended.signal;
  }

  /** Ends the session here, cancelling its calls unless `keepCalls` (at shutdown the store ends and tells them). */
  end(keepCalls = false): void {
    if (!keepCalls) for (const call of [...this.calls.values()]) call.cancel('session ended');
    this.#ended.abort();
  }
}
