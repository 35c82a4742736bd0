/** The Node side of a request served by `listen()`: what it is made from, and the Web request made of it on demand. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import { isNodeInstance, nodeBuiltin } from '../runtime/node-builtins';

/** The Node request and response behind a request served by `listen()`. */
export interface NodeBindings {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
}

/** Node's request and response of either HTTP version (HTTP/2's compatibility API has the same shape). */
export interface NodeExchange {
  readonly incoming: IncomingMessage | Http2ServerRequest;
  readonly outgoing: ServerResponse | Http2ServerResponse;
}

/** What a context served by `listen()` is made from: Node's request and response, and the request's URL. */
export interface NodeSource extends NodeExchange {
  /** The absolute URL, when normalizing the target made it (else built from the parts below on first use). */
  readonly url: string | undefined;
  readonly scheme: 'http' | 'https';
  readonly host: string;
}

const USUAL_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS']);

/** The method in upper case; the usual ones, which Node and `Request` already give upper-cased, without a copy. */
export function canonicalMethod(method: string): string {
  return USUAL_METHODS.has(method) ? method : method.toUpperCase();
}

/** A `Headers` of Node's raw list (repeats appended, so joined as `Headers` joins them), without HTTP/2's `:path`... */
export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** The HTTP/1.1 request and response behind a context (its source, or a server adapter's environment). */
export function nodeBindingsOf(source: NodeSource | undefined, environment: unknown): NodeBindings | undefined {
  if (source)
    return isNodeInstance(source.incoming, 'node:http', 'IncomingMessage') ? (source as NodeBindings) : undefined;
  const bindings = environment as Partial<NodeBindings> | undefined;
  return isNodeInstance(bindings?.incoming, 'node:http', 'IncomingMessage') &&
    isNodeInstance(bindings?.outgoing, 'node:http', 'ServerResponse')
    ? (bindings as NodeBindings)
    : undefined;
}

/** Whether something started reading Node's request (a filter, a stream made from it): then it owns the body. */
export function isBodyStarted(incoming: IncomingMessage | Http2ServerRequest): boolean {
  return (
    incoming.readableDidRead ||
    incoming.destroyed ||
    incoming.listenerCount('data') > 0 ||
    incoming.listenerCount('readable') > 0
  );
}

/** Whether the client of a request (served by `listen()` from `source`, else the Web `request`) has gone. */
export function clientGoneOf(source: NodeSource | undefined, request: Request | undefined): boolean {
  if (source === undefined) return request?.signal.aborted ?? false;
  const { incoming, outgoing } = source;
  if (!isNodeInstance(incoming, 'node:http', 'IncomingMessage'))
    return (incoming as Http2ServerRequest).stream?.destroyed ?? true;
  // Node lets go of the request's socket in places (a body dumped after a limit): the response may still hold it.
  const socket = (incoming.socket as Socket | null) ?? (outgoing as ServerResponse).socket;
  return socket?.destroyed ?? false;
}

/** A header's value in Node's raw list by its lower-case name: `null` when absent, `undefined` when repeated. */
export function singleRawHeader(raw: readonly string[], lowerName: string): string | null | undefined {
  let found = -1;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      if (found >= 0) return undefined;
      found = i + 1;
    }
  }
  return found < 0 ? null : raw[found]!;
}

/**
 * The Web request of a context served by `listen()`: its body a Web stream (empty once read directly), its signal
 * aborted when the client goes before the answer is out; without `source` (let go of), one with no body.
 */
export function webRequestOf(
  source: NodeSource | undefined,
  method: string,
  headers: Headers,
  url: string,
  bodyTaken: boolean,
): Request {
  if (source === undefined) return new Request(url, { method, headers });
  const { incoming, outgoing } = source;
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableEnded)
      controller.abort(new Error('The client closed the connection before the answer was sent'));
  });
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyTaken
      ? new ReadableStream({ start: (stream) => stream.close() })
      : (nodeBuiltin('node:stream', 'the Node listener').Readable.toWeb(
          incoming,
        ) as unknown as ReadableStream<Uint8Array>);
    init.duplex = 'half';
  }
  return new Request(url, init);
}
