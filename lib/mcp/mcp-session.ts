/** One MCP session: what its client said at `initialize`, and what it has asked for since (log level, subscriptions). */
import type { JsonRpcResponse } from './json-rpc';
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';

/** A call running for the session in this process, to cancel by its request id. */
export interface RunningCall {
  cancel(reason: string | undefined): void;
}

export class McpSession {
  #logLevel: McpLogLevel | undefined;
  readonly #subscriptions = new Set<string>();
  readonly #ended = new AbortController();
  #noticesOpen = false;
  #lastSeen = Date.now();
  /** The session's calls running in this process, by request id (as text: JSON-RPC ids are strings or numbers). */
  readonly calls = new Map<string, RunningCall>();
  /** What waits for the client's answers to the server's requests (sampling, elicitation), by request id. */
  readonly #awaited = new Map<string, (response: JsonRpcResponse) => void>();

  constructor(
    readonly facts: McpClientFacts,
    /** Who opened it (the principal's name): only they may use it. */
    readonly principal: string | undefined,
  ) {}

  get id(): string {
    return this.facts.sessionId;
  }

  /** The log level the client set (`logging/setLevel`); until then every message is sent. */
  get logLevel(): McpLogLevel | undefined {
    return this.#logLevel;
  }

  setLogLevel(level: McpLogLevel): void {
    this.#logLevel = level;
  }

  /** Whether the client subscribed to the resource `uri` (`resources/subscribe`). */
  isSubscribed(uri: string): boolean {
    return this.#subscriptions.has(uri);
  }

  subscribe(uri: string, subscribed: boolean): void {
    if (subscribed) this.#subscriptions.add(uri);
    else this.#subscriptions.delete(uri);
  }

  /** Cancels a call of the session running here (`notifications/cancelled`); an unknown id is ignored, as MCP says. */
  cancel(requestId: string | number, reason: string | undefined): void {
    this.calls.get(String(requestId))?.cancel(reason);
  }

  /** Waits for the client's answer to the server's request `id`; returns how to stop waiting. */
  awaitReply(id: string, take: (response: JsonRpcResponse) => void): () => void {
    this.#awaited.set(id, take);
    return () => void this.#awaited.delete(id);
  }

  /** Hands the client's answer to what waits for it; false when nothing does (an answer to nothing is dropped). */
  reply(response: JsonRpcResponse): boolean {
    const take = this.#awaited.get(String(response.id));
    if (!take) return false;
    this.#awaited.delete(String(response.id));
    take(response);
    return true;
  }

  /** A request named the session now. */
  touch(now = Date.now()): void {
    this.#lastSeen = now;
  }

  /** How long the session has been idle at `now`: no request, no call running here, no notices stream open. */
  idleFor(now = Date.now()): number {
    return this.calls.size > 0 || this.#noticesOpen ? 0 : now - this.#lastSeen;
  }

  /** Takes the session's one notices stream (`GET`); false when it is taken. */
  openNotices(): boolean {
    if (this.#noticesOpen) return false;
    this.#noticesOpen = true;
    return true;
  }

  closeNotices(): void {
    this.#noticesOpen = false;
    this.touch();
  }

  /** Aborted once the session is over (deleted or expired): its streams end then. */
  get ended(): AbortSignal {
    return this.#ended.signal;
  }

  /** Ends the session: its running calls are cancelled, its streams end. */
  end(): void {
    for (const call of [...this.calls.values()]) call.cancel('session ended');
    this.#ended.abort();
  }
}
