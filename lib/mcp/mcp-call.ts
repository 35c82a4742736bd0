/** The handle a tool gets for its call: notices, requests to the client, its cancellation, and who the client is. */
import type { Observable } from 'rxjs';
import { defer } from 'rxjs/internal/observable/defer';
import { logNotice, progressNotice, type McpLogLevel, type McpNotice } from './notices';

/** One message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>> & { readonly type: string };
}

/** `sampling/createMessage` (the fields MCP defines beyond these pass as they are). */
export interface CreateMessageParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly [field: string]: unknown;
}

/** The client's answer to `sampling/createMessage`. */
export interface CreateMessageResult {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>> & { readonly type: string };
  readonly model: string;
  readonly stopReason?: string;
  readonly [field: string]: unknown;
}

/** `elicitation/create`: a message for the user and the schema of what to ask (flat: strings, numbers, booleans, enums). */
export interface ElicitParams {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** The user's answer: what they did, and what they gave when they accepted. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

export const REQUIRED_CAPABILITY: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** What the server knows of the client of a session, from its `initialize`. */
export interface McpClientFacts {
  readonly sessionId: string;
  readonly protocolVersion: string;
  readonly clientInfo: Readonly<Record<string, unknown>>;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** The call's own stream. */
export interface CallOutlet {
  notice(notice: McpNotice): void;
  ask(method: string, params: Readonly<Record<string, unknown>>): Observable<unknown>;
  closeStream(): void;
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

  /**
   * Asks the client's model (`sampling/createMessage`), on the call's stream, when subscribed. Fails with a
   * `ToolError` when the client declared no `sampling` capability.
   *
   * @example
   * const answer = await firstValueFrom(call.sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100 }));
   */
  sample(params: CreateMessageParams): Observable<CreateMessageResult> {
    return this.request('sampling/createMessage', params) as Observable<CreateMessageResult>;
  }

  /** Asks the client's user (`elicitation/create`); fails with a `ToolError` when it declared no `elicitation`. */
  elicit(params: ElicitParams): Observable<ElicitResult> {
    return this.request('elicitation/create', params) as Observable<ElicitResult>;
  }

  /**
   * Sends any request to the client on the call's stream, when subscribed: its answer is the one value, its error the
   * Observable's; unsubscribing before the answer tells the client the request is cancelled.
   */
  request(method: string, params: Readonly<Record<string, unknown>>): Observable<unknown> {
    return defer(() => this.#outlet.ask(method, params));
  }

  /**
   * Ends the HTTP answer this call streams on, while the call goes on: the client comes back with `Last-Event-ID`
   * (after the `retry` it was given) and gets the rest — polling instead of holding a connection open. Nothing
   * happens for a client that could not come back (a version before 2025-11-25).
   */
  closeStream(): void {
    this.#outlet.closeStream();
  }
}
