/**
 * A client of MCP servers (Streamable HTTP) whose calls are Observables: a tool's progress and log messages as items
 * as they come, then its result; unsubscribing cancels the call on the server. A cut stream is resumed with
 * `Last-Event-ID`, on whichever instance answers; requests the server makes back (sampling, elicitation) go to the
 * handlers given. It needs only `fetch`, so it runs in browsers too.
 */
import { defer } from 'rxjs/internal/observable/defer';
import { from } from 'rxjs/internal/observable/from';
import { Observable } from 'rxjs/internal/Observable';
import { catchError } from 'rxjs/internal/operators/catchError';
import { filter } from 'rxjs/internal/operators/filter';
import { switchMap } from 'rxjs/internal/operators/switchMap';
import { map } from 'rxjs/internal/operators/map';
import { take } from 'rxjs/internal/operators/take';
import type { ObservableInput } from 'rxjs';
import { WebApplicationException } from '../errors/web-application-exception';
import { exceptionFor } from './client-errors';
import { mcpMessages, type McpReconnectOptions } from './mcp-stream';

/** A JSON-RPC error the server answered a request with. */
export class McpClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpClientError';
  }
}

/** What a server request handler gets, and answers (a value, a Promise or an Observable's first value). */
export type McpRequestHandler = (params: Record<string, unknown>) => ObservableInput<unknown>;

export interface McpClientOptions {
  /** Headers sent with every request (an `Authorization`, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (the global one by default). */
  readonly fetch?: typeof fetch;
  /** What `initialize` says of the client. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Answers the server's `sampling/createMessage` (the client then declares the `sampling` capability). */
  readonly sampling?: McpRequestHandler;
  /** Answers the server's `elicitation/create` (the client then declares the `elicitation` capability). */
  readonly elicitation?: McpRequestHandler;
  readonly reconnect?: McpReconnectOptions;
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

interface Message {
  readonly jsonrpc: '2.0';
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: unknown };
}

const LATEST_VERSION = '2025-11-25';

export class McpClient {
  readonly #url: string;
  readonly #options: McpClientOptions;
  readonly #fetch: typeof fetch;
  #session: Promise<{ id: string; version: string }> | undefined;
  #nextId = 0;

  constructor(url: string | URL, options: McpClientOptions = {}) {
    this.#url = String(url);
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
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
      const id = this.#id();
      const token = `${id}-progress`;
      const request = {
        jsonrpc: '2.0' as const,
        id,
        method: 'tools/call',
        params: { name, arguments: args, _meta: { progressToken: token } },
      };
      return this.#exchange(request).pipe(
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
    return defer(() =>
      this.#exchange({ jsonrpc: '2.0' as const, id: this.#id(), method, params }).pipe(
        map((message) => message.result),
      ),
    );
  }

  /** Ends the session on the server (`DELETE`); the next call opens a new one. */
  async close(): Promise<void> {
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    if (session)
      await this.#fetch(this.#url, { method: 'DELETE', headers: this.#headers(session) }).catch(() => undefined);
  }

  #id(): number {
    return ++this.#nextId;
  }

  #headers(session?: { id: string; version: string }): Record<string, string> {
    return {
      ...this.#options.headers,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(session ? { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version } : {}),
    };
  }

  /** Sends a request in the session; its messages until its response (a JSON-RPC error is the error). */
  #exchange(request: Message & { id: number }): Observable<Message> {
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
        if (!answered) void this.#notify('notifications/cancelled', { requestId: request.id, reason: 'unsubscribed' });
      };
    });
  }

  #messages(session: { id: string; version: string }, request: Message): Observable<Message> {
    const post = (signal: AbortSignal) =>
      this.#fetch(this.#url, {
        method: 'POST',
        headers: this.#headers(session),
        body: JSON.stringify(request),
        signal,
      });
    const reopen = (lastEventId: string, signal: AbortSignal) =>
      this.#fetch(this.#url, {
        method: 'GET',
        headers: { ...this.#headers(session), accept: 'text/event-stream', 'last-event-id': lastEventId },
        signal,
      });
    return (mcpMessages(post, reopen, this.#options.reconnect) as Observable<Message>).pipe(
      filter((message) => {
        // A request of the server (sampling, elicitation) is answered by its handler, on a POST of its own.
        if (message.method === undefined || message.id === undefined) return true;
        this.#answer(session, message);
        return false;
      }),
    );
  }

  #answer(session: { id: string; version: string }, message: Message): void {
    const handler =
      message.method === 'sampling/createMessage'
        ? this.#options.sampling
        : message.method === 'elicitation/create'
          ? this.#options.elicitation
          : undefined;
    const reply = (body: Record<string, unknown>) =>
      void this.#fetch(this.#url, {
        method: 'POST',
        headers: this.#headers(session),
        body: JSON.stringify({ jsonrpc: '2.0', id: message.id, ...body }),
      }).catch(() => undefined);
    if (!handler) return reply({ error: { code: -32601, message: `Method not found: ${String(message.method)}` } });
    from(handler(message.params ?? {}))
      .pipe(take(1))
      .subscribe({
        next: (result) => reply({ result }),
        error: (error: unknown) =>
          reply({ error: { code: -32603, message: error instanceof Error ? error.message : String(error) } }),
      });
  }

  #notify(method: string, params: Record<string, unknown>): Promise<void> {
    const session = this.#session;
    if (!session) return Promise.resolve();
    return session
      .then((opened) =>
        this.#fetch(this.#url, {
          method: 'POST',
          headers: this.#headers(opened),
          body: JSON.stringify({ jsonrpc: '2.0', method, params }),
        }),
      )
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /** The session: opened once, by `initialize` and `notifications/initialized`. */
  #connect(): Promise<{ id: string; version: string }> {
    return (this.#session ??= this.#initialize().catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    }));
  }

  async #initialize(): Promise<{ id: string; version: string }> {
    const capabilities: Record<string, unknown> = {};
    if (this.#options.sampling) capabilities.sampling = {};
    if (this.#options.elicitation) capabilities.elicitation = {};
    const body = {
      jsonrpc: '2.0',
      id: this.#id(),
      method: 'initialize',
      params: {
        protocolVersion: LATEST_VERSION,
        capabilities,
        clientInfo: this.#options.clientInfo ?? { name: 'rxrest', version: '1' },
      },
    };
    let id = '';
    const post = async (signal: AbortSignal) => {
      const response = await this.#fetch(this.#url, {
        method: 'POST',
        headers: this.#headers(),
        body: JSON.stringify(body),
        signal,
      });
      id = response.headers.get('mcp-session-id') ?? '';
      return response;
    };
    // Answered as JSON or as SSE, whichever the server chose; there is no session to resume in yet.
    const answer = await new Promise<Message>((resolve, reject) =>
      (mcpMessages(post, () => Promise.reject(new Error('initialize was cut off'))) as Observable<Message>)
        .pipe(
          filter((message) => message.id === body.id),
          take(1),
        )
        .subscribe({ next: resolve, error: reject, complete: () => reject(new Error('initialize was not answered')) }),
    );
    if (answer.error) throw new McpClientError(answer.error.code, answer.error.message, answer.error.data);
    const version = (answer.result as { protocolVersion?: string } | undefined)?.protocolVersion ?? LATEST_VERSION;
    const session = { id, version };
    await this.#fetch(this.#url, {
      method: 'POST',
      headers: this.#headers(session),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    return session;
  }
}
