/** Test helpers for MCP servers: JSON-RPC posted in process, and the official SDK's client over a real socket. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { RestApp } from '../../lib';
import { call } from './app';
import { bounded, STEP_MS, within } from './until';

/** The live answers of this spec file still open, cut after it (a test that failed mid-way leaves its streams open). */
const live = new Set<ClientRequest>();
afterAll(() => {
  for (const req of live) req.destroy();
  live.clear();
});

/** What every MCP POST of these specs accepts and sends. */
export const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** Posts `body` (a message or a batch) to `path` in process, under the session `session` when given. */
export function mcpPost(
  app: RestApp,
  body: unknown,
  session?: string,
  headers: Record<string, string> = {},
  path = '/mcp',
): Promise<Response> {
  return Promise.resolve(
    call(app, path, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...(session ? { 'mcp-session-id': session } : {}), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** Posts `body` (a message or a batch) to `${origin}/mcp` over a real socket, with `headers` beside the MCP ones. */
export function mcpPostOver(origin: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

export function initializeRequest(protocolVersion = '2025-11-25', id: number | string = 0): unknown {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'spec', version: '1.0.0' } },
  };
}

/** Initializes a session in process; resolves with its id. */
export async function openSession(app: RestApp, protocolVersion = '2025-11-25', path = '/mcp'): Promise<string> {
  const response = await mcpPost(app, initializeRequest(protocolVersion), undefined, {}, path);
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  return response.headers.get('mcp-session-id')!;
}

/** The SSE events of a body, each as its fields (`data` joined); comments left out. */
export function sseEvents(text: string): { id?: string; event?: string; retry?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const fields: Record<string, string[]> = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon);
        (fields[name] ??= []).push(line.slice(colon + 1).replace(/^ /, ''));
      }
      return {
        ...(fields.id ? { id: fields.id[0] } : {}),
        ...(fields.event ? { event: fields.event[0] } : {}),
        ...(fields.retry ? { retry: fields.retry[0] } : {}),
        data: (fields.data ?? []).join('\n'),
      };
    });
}

/** The JSON-RPC messages of an SSE body (priming events left out). */
export function sseMessages(text: string): Record<string, unknown>[] {
  return sseEvents(text)
    .filter((event) => event.data !== '' && (event.event === undefined || event.event === 'message'))
    .map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

/** The official SDK's client, connected to `url`. */
export async function connectClient(
  url: string,
  options: { capabilities?: Record<string, unknown>; requestInit?: RequestInit } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'spec-client', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: options.requestInit });
  await client.connect(transport);
  return { client, transport };
}

/** A JSON-RPC response as these specs read it. */
export interface RpcReply {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result?: Record<string, unknown> & { protocolVersion?: string };
  readonly error?: { code: number; message: string; data?: unknown };
}

/** The JSON-RPC response (or batch of them) of an answer. */
export async function rpc(response: Response): Promise<RpcReply> {
  return (await response.json()) as RpcReply;
}

/** One MCP answer read over a real socket as it comes: its SSE events (or JSON body), and a way to cut it. */
export interface LiveAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The SSE events so far (comments left out). */
  readonly events: { id?: string; event?: string; retry?: string; data: string }[];
  /** The body so far. */
  text(): string;
  /** Resolves once `check` holds of the events, or the answer has ended; fails naming `what` after `timeoutMs`. */
  until(check: (events: LiveAnswer['events']) => boolean, what?: string, timeoutMs?: number): Promise<void>;
  /** Resolves once the answer has ended; fails when it has not within 15 s of being asked for. */
  readonly ended: Promise<void>;
  /** Destroys the socket, as a dropped connection. */
  cut(): void;
}

/** Sends a request (a POST with `body`, or a GET) over a connection of its own; resolves with the head. */
export function sendLive(
  url: string,
  method: 'POST' | 'GET' | 'DELETE',
  headers: Record<string, string>,
  body?: unknown,
): Promise<LiveAnswer> {
  const head = new Promise<LiveAnswer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(url, { method, agent: false, headers }, (res) => {
      res.once('close', () => live.delete(req));
      let text = '';
      const waiters: (() => void)[] = [];
      const events: LiveAnswer['events'] = [];
      const wake = () => waiters.splice(0).forEach((waiter) => waiter());
      let done = false;
      const ended = new Promise<void>((end) => {
        const finish = () => ((done = true), wake(), end());
        res.on('end', finish);
        res.on('error', finish);
        res.on('close', finish);
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        events.splice(0, events.length, ...sseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2)));
        wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        text: () => text,
        get ended() {
          return bounded(ended, `the end of the answer to ${method} ${url}`);
        },
        until: (check, what = 'the events awaited', timeoutMs = STEP_MS) =>
          within(
            (async () => {
              while (!check(events) && !done) await new Promise<void>((waiter) => waiters.push(waiter));
            })(),
            `${what} in the answer to ${method} ${url}`,
            timeoutMs,
          ),
        cut: () => req.destroy(),
      });
    });
    live.add(req);
    req.on('error', (error) => {
      live.delete(req);
      reject(error);
    });
    req.end(payload);
  });
  // Its request is cut after the file if the head never comes.
  return within(head, `the head of the answer to ${method} ${url}`);
}

/** Initializes a session over a real socket; resolves with its id. */
export async function openLiveSession(url: string, protocolVersion = '2025-11-25'): Promise<string> {
  const answer = await sendLive(url, 'POST', MCP_HEADERS, initializeRequest(protocolVersion));
  await answer.ended;
  return answer.headers['mcp-session-id'] as string;
}

/**
 * A `fetch` for the SDK's transport that sends each request to `base` (which a spec may switch to another instance),
 * can cut the SSE answer of the next tool call after a number of progress notifications (as a dropped connection
 * would: the client has every event before the cut, and reconnects with the last id), and can hold the reconnection
 * until the spec lets it go.
 */
export class Switchboard {
  /** Cut the next call's stream after this many progress notifications. */
  cutAfter: number | undefined;
  /** Reconnections (GETs with `Last-Event-ID`) wait for this. */
  hold: Promise<void> = Promise.resolve();
  /** Each `Last-Event-ID` a reconnection sent. */
  readonly resumedFrom: string[] = [];
  readonly #cut: { resolve: () => void; promise: Promise<void> };

  constructor(public base: string) {
    let resolve = () => undefined as void;
    const promise = new Promise<void>((done) => (resolve = done));
    this.#cut = { resolve, promise };
  }

  /** Resolves once a stream was cut. */
  get cut(): Promise<void> {
    return this.#cut.promise;
  }

  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const path = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init.headers);
    const lastEventId = headers.get('last-event-id');
    if (lastEventId) {
      this.resumedFrom.push(lastEventId);
      await this.hold;
    }
    const response = await fetch(new URL(path.pathname + path.search, this.base), init);
    const limit = this.cutAfter;
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    if (limit === undefined || init.method !== 'POST' || !sse || !String(init.body).includes('tools/call'))
      return response;
    this.cutAfter = undefined;
    return new Response(this.#cutting(response.body!, limit), { status: response.status, headers: response.headers });
  };

  /** The stream's complete events until `limit` progress notifications have passed, then an error (a cut). */
  #cutting(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = '';
    let progress = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        pending += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const event = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          controller.enqueue(encoder.encode(event));
          if (event.includes('notifications/progress') && ++progress === limit) {
            await reader.cancel();
            controller.error(new Error('connection cut'));
            this.#cut.resolve();
            return;
          }
        }
      },
      cancel: () => reader.cancel(),
    });
  }
}
