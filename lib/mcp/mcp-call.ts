/**
 * The handle a tool gets for its call (a parameter typed `McpCall`): progress and log messages sent on the call's
 * own stream as they come, the call's cancellation as an `AbortSignal`, and who the client is.
 */
import { logNotice, progressNotice, type McpLogLevel, type McpNotice } from './notices';

/** What the server knows of the client of a session, from its `initialize`. */
export interface McpClientFacts {
  readonly sessionId: string;
  readonly protocolVersion: string;
  readonly clientInfo: Readonly<Record<string, unknown>>;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** Where a call's handle sends what it is given: the call's own stream. */
export interface CallOutlet {
  notice(notice: McpNotice): void;
}

/**
 * One call of a tool. Inject it by type (`call: McpCall`, with `McpCall` imported as a value).
 *
 * @example
 * \@Tool({ description: 'Imports a file', input: z.object({ url: z.string() }) })
 * async import(args: { url: string }, call: McpCall): Promise<string> {
 *   call.progress(0, 2, 'downloading');
 *   const rows = await download(args.url, call.signal);
 *   call.progress(1, 2, 'storing');
 *   await store(rows);
 *   return `${rows.length} rows`;
 * }
 */
export class McpCall {
  readonly #outlet: CallOutlet;

  /** @internal made by the server for each call. */
  constructor(
    /** The JSON-RPC id of the `tools/call` request. */
    readonly requestId: string | number,
    /** The client's session and what it said of itself. */
    readonly client: McpClientFacts,
    /** Aborted when the call is cancelled: `notifications/cancelled`, or its client gone for good. */
    readonly signal: AbortSignal,
    outlet: CallOutlet,
  ) {
    this.#outlet = outlet;
  }

  /** Sends a progress notification (when the client asked for progress: it gave a `progressToken`). */
  progress(progress: number, total?: number, message?: string): void {
    this.#outlet.notice(progressNotice(progress, total, message));
  }

  /** Sends a log message to the client (when at or above the level it set). */
  log(level: McpLogLevel, data: unknown, logger?: string): void {
    this.#outlet.notice(logNotice(level, data, logger));
  }
}
