/** An MCP client's wire: requests with the session's headers, opening a session, answering the server's requests. */
import type { Observable, ObservableInput } from 'rxjs';
import { firstValueFrom } from 'rxjs/internal/firstValueFrom';
import { from } from 'rxjs/internal/observable/from';
import { filter } from 'rxjs/internal/operators/filter';
import { take } from 'rxjs/internal/operators/take';
import { mcpMessages, type McpReconnectOptions } from './mcp-stream';
import { networkFailure } from './network-failure';
import type { ResolvedLimits } from './answer-limits';
import { messageOf } from '../errors/message-of';
import { McpClientError } from './mcp-client-error';

/** What a server request handler gets, and answers (a value, a Promise or an Observable's first value). */
export type McpRequestHandler = (params: Record<string, unknown>) => ObservableInput<unknown>;

export interface Message {
  readonly jsonrpc: '2.0';
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: unknown };
}

export interface SessionRef {
  readonly id: string;
  readonly version: string;
}

export const LATEST_VERSION = '2025-11-25';

export interface McpWire {
  post(session: SessionRef | undefined, body: unknown, signal?: AbortSignal): Promise<Response>;
  /** Posts a message whose answer the client does not read (a notification, a reply to the server). */
  tell(session: SessionRef, body: unknown): Promise<void>;
  resume(session: SessionRef, lastEventId: string, signal: AbortSignal): Promise<Response>;
  end(session: SessionRef): Promise<void>;
}

export function mcpWire(url: string, fetchFn: typeof fetch, headers: Readonly<Record<string, string>> = {}): McpWire {
  // Marked where it arises: only a network failure is asked again.
  const send = (init: RequestInit) => fetchFn(url, init).catch(networkFailure);
  // An answer not read is let go at once: unread, it holds its connection open until it is garbage collected.
  const discard = (response: Response) => void response.body?.cancel().catch(() => undefined);
  const headersOf = (session: SessionRef | undefined): Record<string, string> => ({
    ...headers,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...(session ? { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version } : {}),
  });
  return {
    post: (session, body, signal) =>
      send({ method: 'POST', headers: headersOf(session), body: JSON.stringify(body), signal }),
    tell: (session, body) =>
      send({ method: 'POST', headers: headersOf(session), body: JSON.stringify(body) }).then(discard),
    resume: (session, lastEventId, signal) =>
      send({
        method: 'GET',
        headers: { ...headersOf(session), accept: 'text/event-stream', 'last-event-id': lastEventId },
        signal,
      }),
    end: (session) => send({ method: 'DELETE', headers: headersOf(session) }).then(discard),
  };
}

export interface SessionOptions {
  /** What `initialize` says of the client. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Answers the server's `sampling/createMessage` (the client then declares the `sampling` capability). */
  readonly sampling?: McpRequestHandler;
  /** Answers the server's `elicitation/create` (the client then declares the `elicitation` capability). */
  readonly elicitation?: McpRequestHandler;
  /** How a cut SSE answer (to `initialize` too) is resumed: 5 attempts in a row, 1 s apart unless the server says. */
  readonly reconnect?: McpReconnectOptions;
}

/**
 * Opens a session: `initialize` (answered as JSON or SSE, whichever the server chose; a cut SSE answer resumed as any
 * call's, in the session the server named), then `initialized`.
 */
export async function openSession(
  wire: McpWire,
  options: SessionOptions,
  requestId: number,
  limits: ResolvedLimits,
): Promise<SessionRef> {
  const capabilities = { ...(options.sampling && { sampling: {} }), ...(options.elicitation && { elicitation: {} }) };
  const clientInfo = options.clientInfo ?? { name: 'rxrest', version: '1' };
  const body = {
    jsonrpc: '2.0',
    id: requestId,
    method: 'initialize',
    params: { protocolVersion: LATEST_VERSION, capabilities, clientInfo },
  };
  let id = '';
  const post = async (signal: AbortSignal) => {
    const response = await wire.post(undefined, body, signal);
    id = response.headers.get('mcp-session-id') ?? '';
    return response;
  };
  // The version asked for: the server has not said yet which it speaks.
  const reopen = (lastEventId: string, signal: AbortSignal) =>
    wire.resume({ id, version: LATEST_VERSION }, lastEventId, signal);
  const answers = mcpMessages(post, reopen, options.reconnect, limits) as Observable<Message>;
  const answer = await firstValueFrom(answers.pipe(filter((message) => message.id === requestId)), {
    defaultValue: undefined,
  });
  if (!answer) throw new Error('initialize was not answered');
  if (answer.error) throw new McpClientError(answer.error.code, answer.error.message, answer.error.data);
  const version = (answer.result as { protocolVersion?: string } | undefined)?.protocolVersion ?? LATEST_VERSION;
  const session = { id, version };
  await wire.tell(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return session;
}

/** Answers a request of the server (on a POST of its own) with its handler; without one, method not found. */
export function answerServer(wire: McpWire, session: SessionRef, message: Message, options: SessionOptions): void {
  const handler =
    message.method === 'sampling/createMessage'
      ? options.sampling
      : message.method === 'elicitation/create'
        ? options.elicitation
        : undefined;
  const reply = (body: Record<string, unknown>) =>
    void wire.tell(session, { jsonrpc: '2.0', id: message.id, ...body }).catch(() => undefined);
  if (!handler) return reply({ error: { code: -32601, message: `Method not found: ${String(message.method)}` } });
  from(handler(message.params ?? {}))
    .pipe(take(1))
    .subscribe({
      next: (result) => reply({ result }),
      error: (error: unknown) => reply({ error: { code: -32603, message: messageOf(error) } }),
    });
}
