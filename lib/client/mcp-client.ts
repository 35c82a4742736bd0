/**
 * A client of MCP servers (Streamable HTTP) whose calls are Observables: a tool's progress and log messages, then its
 * result; unsubscribing cancels the call on the server, a cut stream is resumed. It needs only `fetch`.
 */
import { defer } from 'rxjs/internal/observable/defer';
import { from } from 'rxjs/internal/observable/from';
import { Observable } from 'rxjs/internal/Observable';
import { catchError } from 'rxjs/internal/operators/catchError';
import { filter } from 'rxjs/internal/operators/filter';
import { switchMap } from 'rxjs/internal/operators/switchMap';
import { map } from 'rxjs/internal/operators/map';
import { WebApplicationException } from '../errors/web-application-exception';
import {
  answerServer,
  mcpWire,
  openSession,
  type McpRequestHandler,
  type McpWire,
  type Message,
  type SessionOptions,
  type SessionRef,
} from './mcp-connection';
import { mcpMessages } from './mcp-stream';
import { McpClientError } from './mcp-client-error';
import { answerLimits, type AnswerLimits } from './answer-limits';

export { McpClientError, type McpRequestHandler };

export interface McpClientOptions extends SessionOptions {
  /** Headers sent with every request (an `Authorization`, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (the global one by default). */
  readonly fetch?: typeof fetch;
  /** How much of an answer the client holds at most (10 MiB whole, 1 Mi characters an event, by default). */
  readonly limits?: AnswerLimits;
}

/** One item of a tool call: a progress or log notification as it comes, then the result (the last item). */
export type McpCallEvent =
  | { readonly type: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly type: 'log'; readonly level: string; readonly data: unknown; readonly logger?: string }
  | { readonly type: 'result'; readonly result: McpToolResult };

export interface McpToolResult {
  readonly content: readonly (Readonly<Record<string, unknown>> & { readonly type: string })[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

export class McpClient {
  readonly #options: McpClientOptions;
  readonly #wire: McpWire;
  readonly #limits: ReturnType<typeof answerLimits>;
  #session: Promise<SessionRef> | undefined;
  #nextId = 0;

  constructor(url: string | URL, options: McpClientOptions = {}) {
    this.#options = options;
    this.#limits = answerLimits(options.limits);
    this.#wire = mcpWire(String(url), options.fetch ?? ((input, init) => fetch(input, init)), options.headers);
  }

  /**
   * The tool's progress and log messages as they come, then its result, then completion. A JSON-RPC error (an unknown
   * tool) is the Observable's error; a tool's own failure is a result with `isError`.
   *
   * @example
   * client.callToolEvents('count_slow', { n: 3, delayMs: 100 }).subscribe((event) => console.log(event.type));
   */
  callToolEvents(name: string, args: Record<string, unknown> = {}): Observable<McpCallEvent> {
    return defer(() => {
      const id = ++this.#nextId;
      const token = `${id}-progress`;
      return this.#exchange('tools/call', { name, arguments: args, _meta: { progressToken: token } }, id).pipe(
        map((message): McpCallEvent | undefined => {
          const { method, params } = message;
          if (method === 'notifications/progress' && params?.progressToken === token)
            return {
              type: 'progress',
              progress: Number(params.progress),
              total: params.total as number | undefined,
              message: params.message as string | undefined,
            };
          if (method === 'notifications/message')
            return {
              type: 'log',
              level: String(params?.level),
              data: params?.data,
              logger: params?.logger as string | undefined,
            };
          return message.id === id && method === undefined
            ? { type: 'result', result: message.result as McpToolResult }
            : undefined;
        }),
        filter((event): event is McpCallEvent => event !== undefined),
      );
    });
  }

  /** The tool's result, once (its notifications left out). */
  callTool(name: string, args: Record<string, unknown> = {}): Observable<McpToolResult> {
    return this.callToolEvents(name, args).pipe(
      filter((event): event is Extract<McpCallEvent, { type: 'result' }> => event.type === 'result'),
      map((event) => event.result),
    );
  }

  /** The server's tools, as `tools/list` lists them. */
  listTools(): Observable<readonly { name: string; description?: string; inputSchema: Record<string, unknown> }[]> {
    return this.request('tools/list').pipe(map((result) => (result as { tools: [] }).tools));
  }

  /** Any request: its result, once. */
  request(method: string, params: Record<string, unknown> = {}): Observable<unknown> {
    return defer(() => this.#exchange(method, params).pipe(map((message) => message.result)));
  }

  /** Ends the session on the server (`DELETE`); the next call opens a new one. */
  async close(): Promise<void> {
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    if (session) await this.#wire.end(session).catch(() => undefined);
  }

  /** Sends a request in the session; its messages until its response (a JSON-RPC error is the error). */
  #exchange(method: string, params: Record<string, unknown>, id = ++this.#nextId): Observable<Message> {
    const request = { jsonrpc: '2.0' as const, id, method, params };
    return new Observable<Message>((subscriber) => {
      let answered = false;
      // A session the server no longer knows (404: expired, or ended) is opened again, once.
      const messages = (again: boolean): Observable<Message> =>
        from(this.#connect()).pipe(
          switchMap((session) => this.#messages(session, request)),
          catchError((error: unknown) => {
            if (!again || !(error instanceof WebApplicationException) || error.status !== 404) throw error;
            this.#session = undefined;
            return messages(false);
          }),
        );
      const subscription = messages(true).subscribe({
        next: (message) => {
          if (message.id !== request.id || message.method !== undefined) return subscriber.next(message);
          answered = true;
          if (message.error)
            return subscriber.error(new McpClientError(message.error.code, message.error.message, message.error.data));
          subscriber.next(message);
          subscriber.complete();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => answered || subscriber.error(new Error(`No answer to ${request.method}`)),
      });
      return () => {
        subscription.unsubscribe();
        // A call given up before its answer is cancelled on the server.
        if (answered) return;
        const params = { requestId: request.id, reason: 'unsubscribed' };
        const cancelled = { jsonrpc: '2.0', method: 'notifications/cancelled', params };
        void this.#session?.then((opened) => this.#wire.tell(opened, cancelled)).catch(() => undefined);
      };
    });
  }

  #messages(session: SessionRef, request: Message): Observable<Message> {
    const post = (signal: AbortSignal) => this.#wire.post(session, request, signal);
    const reopen = (lastEventId: string, signal: AbortSignal) => this.#wire.resume(session, lastEventId, signal);
    return (mcpMessages(post, reopen, this.#options.reconnect, this.#limits) as Observable<Message>).pipe(
      filter((message) => {
        // A request of the server (sampling, elicitation) is answered by its handler, on a POST of its own.
        if (message.method === undefined || message.id === undefined) return true;
        answerServer(this.#wire, session, message, this.#options);
        return false;
      }),
    );
  }

  /** The session: opened once, by `initialize` and `notifications/initialized`. */
  #connect(): Promise<SessionRef> {
    this.#session ??= openSession(this.#wire, this.#options, ++this.#nextId, this.#limits).catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    return this.#session;
  }
}
