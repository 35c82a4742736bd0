/** One MCP session: what its client said at `initialize`, and what it has asked for since (log level, subscriptions). */
import type { McpClientFacts } from './mcp-call';
import type { McpLogLevel } from './notices';

/** A call running for the session in this process, to cancel by its request id. */
export interface RunningCall {
  cancel(reason: string | undefined): void;
}

export class McpSession {
  /** The log level the client set (`logging/setLevel`); until then every message is sent. */
  logLevel: McpLogLevel | undefined;
  /** The resource URIs the client subscribed to. */
  readonly subscriptions = new Set<string>();
  /** When a request last named the session (milliseconds since the epoch). */
  lastSeen = Date.now();
  /** The session's calls running in this process, by request id (as text: JSON-RPC ids are strings or numbers). */
  readonly calls = new Map<string, RunningCall>();

  constructor(
    readonly facts: McpClientFacts,
    /** Who opened it (the principal's name): only they may use it. */
    readonly principal: string | undefined,
  ) {}

  get id(): string {
    return this.facts.sessionId;
  }

  /** Cancels a call of the session running here (`notifications/cancelled`); an unknown id is ignored, as MCP says. */
  cancel(requestId: string | number, reason: string | undefined): void {
    this.calls.get(String(requestId))?.cancel(reason);
  }
}
