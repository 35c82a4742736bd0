/** The state of one request as it travels the pipeline (ContainerRequestContext for filters). */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { RestResponse } from '../response/rest-response';
import type { ResponseContext } from './response-context';
import { RequestCleanups } from './request-cleanups';
import { findQueryValues, parseQuery } from '../http/query';
import { NO_PARAMS } from '../routing/path-template';
import type { RouteMatch } from '../routing/router';

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
interface NodeSource extends NodeExchange {
  /** The absolute URL, when normalizing the target made it (else built from the parts below on first use). */
  readonly url: string | undefined;
  readonly scheme: 'http' | 'https';
  readonly host: string;
}

/** Which lane the endpoint runs in (execution lanes: docs/streaming.md). */
export type Lane = 'event-loop' | 'worker';

/** What a matched endpoint tells about itself to filters, mappers and `ResourceInfo`. */
export interface EndpointInfo {
  readonly resourceClass: Function;
  readonly methodName: string;
  readonly httpMethod: string;
  readonly pathTemplate: string;
  readonly produces: readonly string[];
  readonly consumes: readonly string[];
  readonly lane: Lane;
}

/** Queries up to this long are scanned for each parameter read rather than parsed into a map. */
const SCANNED_QUERY_LENGTH = 256;

// Shared empty defaults: a request allocates its own only when routing or argument reading fills them.
const NO_MATRIX: ReadonlyMap<string, readonly string[]> = new Map();
const NO_ARGS: unknown[] = Object.freeze([]) as unknown as unknown[];

/** The method in upper case; the usual ones, which Node and `Request` already give upper-cased, without a copy. */
function canonicalMethod(method: string): string {
  switch (method) {
    case 'GET':
    case 'POST':
    case 'PUT':
    case 'DELETE':
    case 'HEAD':
    case 'PATCH':
    case 'OPTIONS':
      return method;
    default:
      return method.toUpperCase();
  }
}

/** Thrown by `abortWith` to jump from a request filter to the response stages. */
export class RequestAborted {
  constructor(readonly response: RestResponse<unknown> | Response) {}
}

/**
 * One request in flight. Filters may change its method, URI and headers (pre-matching filters before
 * routing), read and set properties, or answer it with `abortWith`.
 */
export class RequestContext {
  /** The Web request: given (in process), or made from Node's request the first time something asks for it. */
  #request: Request | undefined;
  /** Node's request behind a context served by `listen()`. */
  readonly #source: NodeSource | undefined;
  /** A filter or stage replaced the request (or its URI). */
  #replaced = false;
  /** The body was read straight from Node's request. */
  #bodyTaken = false;
  #url: string | undefined;
  #method: string;
  #rawPath: string | undefined;
  #rawQuery: string | undefined;
  #query: URLSearchParams | undefined;
  #queryValues: Map<string, string[]> | undefined;
  #headers: Headers | undefined;
  /** Node's raw header list (`null`: not served on Node), read on first use. */
  #rawHeaders: readonly string[] | null | undefined;
  #properties: Map<string, unknown> | undefined;
  #cleanups: RequestCleanups | undefined;

  /** The decoded path without matrix parameters, set by routing. */
  path = '';
  /** Matrix parameters of every path segment, set by routing. */
  matrix: ReadonlyMap<string, readonly string[]> = NO_MATRIX;
  /** The matched route, set by routing. */
  route: RouteMatch<unknown> | undefined;
  endpoint: EndpointInfo | undefined;
  lane: Lane = 'event-loop';
  /** The arguments the endpoint method will be called with. */
  args: unknown[] = NO_ARGS;
  /** The response, once there is one. */
  response: ResponseContext | undefined;
  /** The error being handled, for response filters (`undefined` when none). */
  error: unknown;
  /** The media type negotiated for the response. */
  negotiated: string | undefined;

  constructor(
    request: Request,
    /** What the server passed with the request: under `listen()`, Node's `{ incoming, outgoing }`. */
    readonly environment?: unknown,
    source?: NodeSource,
  ) {
    this.#request = source ? undefined : request;
    this.#source = source;
    this.#method = canonicalMethod(source ? (source.incoming.method ?? 'GET') : request.method);
  }

  /**
   * A context for a request served by `listen()`, read from Node's request: the Web `Request` is made only if
   * something asks for it. `url` is the normalized URL when the target needed it.
   */
  static fromNode(
    incoming: IncomingMessage | Http2ServerRequest,
    outgoing: ServerResponse | Http2ServerResponse,
    scheme: 'http' | 'https',
    host: string,
    url: string | undefined,
  ): RequestContext {
    const source: NodeSource = { incoming, outgoing, scheme, host, url };
    return new RequestContext(undefined as unknown as Request, source, source);
  }

  /**
   * The Node request and response when served by `listen()`, for the few stages that read or write the
   * socket directly (streaming, multipart, clean-up); `undefined` in process.
   */
  get node(): NodeBindings | undefined {
    // HTTP/1.1 only: streams write to its socket directly, an HTTP/2 stream takes them as Web streams.
    if (this.#source)
      return this.#source.incoming instanceof IncomingMessage ? (this.#source as NodeBindings) : undefined;
    const bindings = this.environment as Partial<NodeBindings> | undefined;
    return bindings?.incoming instanceof IncomingMessage && bindings.outgoing instanceof ServerResponse
      ? (bindings as NodeBindings)
      : undefined;
  }

  /** Node's request and response, of either HTTP version, when served by `listen()`. */
  get exchange(): NodeExchange | undefined {
    return this.#source;
  }

  /**
   * Whether the client has gone: the connection (HTTP/1.1) or stream (HTTP/2) of a request served by `listen()` is
   * closed, or the signal of a Web request is aborted. An answer then reaches nobody; an error it caused is the
   * client's leaving, not the server's fault.
   */
  get clientGone(): boolean {
    const source = this.#source;
    if (source === undefined) return this.#request?.signal.aborted ?? false;
    const { incoming, outgoing } = source;
    if (!(incoming instanceof IncomingMessage)) return incoming.stream?.destroyed ?? true;
    // Node lets go of the request's socket in places (a body dumped after a limit): the response may still hold it.
    const socket = (incoming.socket as Socket | null) ?? (outgoing as ServerResponse).socket;
    return socket?.destroyed ?? false;
  }

  /** Whether the request is still the one the server received (no filter replaced it or its URI). */
  get isOriginalRequest(): boolean {
    return !this.#replaced;
  }

  /** The Web standard request. */
  get request(): Request {
    return (this.#request ??= this.#webRequest());
  }

  /**
   * Replaces the Web request, keeping method, routing results and headers set with `setHeader`; used
   * by stages that decode the body before it is read (legacy `@GZIP` inflation).
   */
  replaceRequest(request: Request): void {
    this.#request = request;
    this.#replaced = true;
  }

  /**
   * Node's request, to read the body from directly: while nothing else has (no replacement, no Web body made
   * from it, nothing reading it). Reading it marks the body taken: a Web request made later has none.
   */
  takeNodeBody(): IncomingMessage | Http2ServerRequest | undefined {
    const incoming = this.#source?.incoming;
    if (!incoming || this.#replaced || this.#bodyTaken || this.#request !== undefined) return undefined;
    // Anyone who started reading it (a filter, a stream made from it) owns it now.
    if (
      incoming.readableDidRead ||
      incoming.destroyed ||
      incoming.listenerCount('data') > 0 ||
      incoming.listenerCount('readable') > 0
    )
      return undefined;
    this.#bodyTaken = true;
    return incoming;
  }

  /** Values of the matched template's variables (none before routing). */
  get pathParams(): Readonly<Record<string, string>> {
    return this.route === undefined ? NO_PARAMS : this.route.params;
  }

  get method(): string {
    return this.#method;
  }

  /** Changes the method; only meaningful in a pre-matching filter. */
  setMethod(method: string): void {
    this.#method = method.toUpperCase();
  }

  get url(): string {
    if (this.#request !== undefined) return this.#request.url;
    const source = this.#source!;
    return (this.#url ??= source.url ?? `${source.scheme}://${source.host}${source.incoming.url ?? '/'}`);
  }

  /** The request path as sent, still percent-encoded and with matrix parameters. */
  get rawPath(): string {
    if (this.#rawPath === undefined) this.#splitUrl();
    return this.#rawPath!;
  }

  /** The query string without `?`, as sent. */
  get rawQuery(): string {
    if (this.#rawQuery === undefined) this.#splitUrl();
    return this.#rawQuery!;
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.rawQuery));
  }

  /**
   * Every value of one query parameter, decoded as `URLSearchParams` would (`+` is a space); `undefined`
   * when absent. Parsed once per request into a map, which is cheaper than a `URLSearchParams`.
   */
  queryValues(name: string): readonly string[] | undefined {
    const query = this.rawQuery;
    if (query === '') return undefined;
    // A short query is scanned per name; a long one is split into a map once.
    if (this.#queryValues === undefined && query.length <= SCANNED_QUERY_LENGTH) return findQueryValues(query, name);
    this.#queryValues ??= parseQuery(query);
    return this.#queryValues.get(name);
  }

  /** Changes the request URI (absolute, or a path with optional query); only meaningful before routing. */
  setRequestUri(uri: string | URL): void {
    const target = new URL(String(uri), this.url);
    this.#request = new Request(target, this.request);
    this.#replaced = true;
    this.#rawPath = undefined;
    this.#rawQuery = undefined;
    this.#query = undefined;
    this.#queryValues = undefined;
  }

  get headers(): Headers {
    if (this.#headers !== undefined) return this.#headers;
    if (this.#request !== undefined) return this.#request.headers;
    return (this.#headers = headersOf(this.#source!.incoming.rawHeaders));
  }

  /** Replaces a request header (the request's own headers are left untouched). */
  setHeader(name: string, value: string | undefined): void {
    this.#headers ??= new Headers(this.headers);
    if (value === undefined) this.#headers.delete(name);
    else this.#headers.set(name, value);
  }

  header(name: string): string | undefined {
    return this.headers.get(name) ?? undefined;
  }

  /**
   * A request header by its lower-case name, exactly as `headers.get(name)` answers it. On the hot path
   * (routing reads `Accept` and `Content-Type` of every request), a header sent at most once to a request
   * served on Node (`listen()`, or `@hono/node-server`) is read from Node's raw header list, without building a
   * header map.
   */
  headerValue(lowerName: string): string | null {
    const raw = this.#headers === undefined && !this.#replaced ? this.#nodeRawHeaders() : null;
    if (raw === null) return this.headers.get(lowerName);
    let found = -1;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i];
      if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
        // A repeated header is joined by the rules of its name: leave that to Headers.
        if (found >= 0) return this.headers.get(lowerName);
        found = i + 1;
      }
    }
    return found < 0 ? null : raw[found];
  }

  #nodeRawHeaders(): readonly string[] | null {
    if (this.#rawHeaders === undefined) {
      const incoming = this.#source?.incoming ?? (this.environment as Partial<NodeBindings> | undefined)?.incoming;
      this.#rawHeaders =
        incoming instanceof IncomingMessage || this.#source !== undefined ? incoming!.rawHeaders : null;
    }
    return this.#rawHeaders;
  }

  /**
   * The Web request of a context served by `listen()`: Node's headers, its body as a Web stream (empty once
   * read directly), and a signal aborted when the client goes away before the answer is out.
   */
  #webRequest(): Request {
    const { incoming, outgoing } = this.#source!;
    const controller = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableEnded)
        controller.abort(new Error('The client closed the connection before the answer was sent'));
    });
    const init: RequestInit & { duplex?: 'half' } = {
      method: this.#method,
      headers: this.headers,
      signal: controller.signal,
    };
    if (this.#method !== 'GET' && this.#method !== 'HEAD') {
      init.body = this.#bodyTaken
        ? new ReadableStream({ start: (stream) => stream.close() })
        : (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>);
      init.duplex = 'half';
    }
    return new Request(this.url, init);
  }

  getProperty<T = unknown>(name: string): T | undefined {
    return this.#properties?.get(name) as T | undefined;
  }

  setProperty(name: string, value: unknown): void {
    (this.#properties ??= new Map()).set(name, value);
  }

  /** Answers the request with `response` without running the rest of the request stages. */
  abortWith(response: RestResponse<unknown> | Response): never {
    throw new RequestAborted(response);
  }

  /** Registers work to run once the response has been sent (or the request failed). */
  onComplete(cleanup: () => void | Promise<void>): void {
    (this.#cleanups ??= new RequestCleanups()).add(cleanup);
  }

  /** Runs the registered clean-ups once; called by the server adapter. */
  async complete(): Promise<void> {
    const cleanups = this.#cleanups;
    this.#cleanups = undefined;
    await cleanups?.run();
  }

  /**
   * The clean-ups registered until they run, to be run later without this context (`run()`, once): what waits for
   * a long response to end holds them alone.
   */
  get cleanups(): RequestCleanups {
    return (this.#cleanups ??= new RequestCleanups());
  }

  get hasCleanups(): boolean {
    return (this.#cleanups?.size ?? 0) > 0;
  }

  #splitUrl(): void {
    const source = this.#request === undefined ? this.#source : undefined;
    // Served by `listen()` with a plain target: the path and query are the target's own.
    if (source !== undefined && source.url === undefined) return this.#splitTarget(source.incoming.url ?? '/');
    const url = this.url;
    const start = url.indexOf('/', url.indexOf('://') + 3);
    if (start < 0) {
      this.#rawPath = '/';
      this.#rawQuery = '';
      return;
    }
    let end = url.indexOf('?', start);
    const hash = url.indexOf('#', start);
    if (hash >= 0 && (end < 0 || hash < end)) end = hash;
    this.#rawPath = end < 0 ? url.slice(start) : url.slice(start, end);
    if (end < 0 || url[end] === '#') this.#rawQuery = '';
    else this.#rawQuery = hash > end ? url.slice(end + 1, hash) : url.slice(end + 1);
  }

  /** Path and query of an origin-form target (`/path?query`, which the request line never carries a fragment in). */
  #splitTarget(target: string): void {
    const query = target.indexOf('?');
    this.#rawPath = query < 0 ? target : target.slice(0, query);
    this.#rawQuery = query < 0 ? '' : target.slice(query + 1);
  }
}

/**
 * A `Headers` of Node's raw header list (a repeated header appended, so joined as `Headers` joins it); HTTP/2's
 * pseudo-headers (`:path`, `:authority`...) are the request line's, not headers.
 */
function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
