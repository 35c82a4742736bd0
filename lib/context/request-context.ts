/** The state of one request as it travels the pipeline (ContainerRequestContext for filters). */
import { isDenoServeInfo } from '../runtime/deno-serve';
import { isNodeInstance } from '../runtime/node-builtins';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { RestResponse } from '../response/rest-response';
import type { ResponseContext } from './response-context';
import { NO_PARAMS } from '../routing/path-template';
import type { RouteMatch } from '../routing/router';
import type { EndpointInfo, Lane } from './endpoint-info';
import { RequestTarget } from './request-target';
import { urlPathStart } from './url-parts';
import { remadeRequest } from './remade-request';
import {
  canonicalMethod,
  clientGoneOf,
  headersOf,
  isBodyStarted,
  nodeBindingsOf,
  singleRawHeader,
  webRequestOf,
  type NodeBindings,
  type NodeExchange,
  type NodeSource,
} from './node-request';

export type { NodeBindings, NodeExchange } from './node-request';
export type { EndpointInfo, Lane } from './endpoint-info';

// Shared: a request allocates its own only when routing or argument reading fills them.
const NO_MATRIX: ReadonlyMap<string, readonly string[]> = new Map();
const NO_ARGS: unknown[] = Object.freeze([]) as unknown as unknown[];

/** Thrown by `abortWith` to jump from a request filter to the response stages. */
export class RequestAborted {
  constructor(readonly response: RestResponse<unknown> | Response) {}
}

/** One request in flight: filters may change its method, URI and headers (before routing), or answer (`abortWith`). */
export class RequestContext extends RequestTarget {
  /** Given (in process), or made from Node's request the first time something asks for it. */
  #request: Request | undefined;
  /** The request `fetch` was given, once a filter or stage replaced it. */
  #received: Request | undefined;
  /** Until `releaseNode`. */
  #source: NodeSource | undefined;
  #environment: unknown;
  #peer: { readonly remoteAddress?: string } | null | undefined;
  #replaced = false;
  /** Read straight from Node's request. */
  #bodyTaken = false;
  /** The runtime's own body failed to read (Deno, workerd): its client left in the middle of it. */
  #bodyLost = false;
  #url: string | undefined;
  #method: string;
  #headers: Headers | undefined;
  /** `null`: not served on Node. */
  #rawHeaders: readonly string[] | null | undefined;

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
  /** The error being handled, for response filters. */
  error: unknown;
  /** The media type negotiated for the response. */
  negotiated: string | undefined;

  constructor(request: Request, environment?: unknown, source?: NodeSource) {
    super();
    this.#environment = environment;
    this.#request = source ? undefined : request;
    this.#source = source;
    this.#method = canonicalMethod(source ? (source.incoming.method ?? 'GET') : request.method);
  }

  /** A context read from Node's request (its Web `Request` made if asked for); `url` when the target was normalized. */
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

  /** What the server passed with the request: under `listen()`, Node's `{ incoming, outgoing }` (until `releaseNode`). */
  get environment(): unknown {
    return this.#environment;
  }

  /**
   * Lets go of Node's request and response once the connection was taken over (a WebSocket may live for hours); what
   * was read stays (the URL, the raw headers `keep` keeps, the peer); a Web request made later has no body.
   */
  releaseNode(keep: (raw: readonly string[]) => readonly string[]): void {
    const source = this.#source;
    if (source === undefined) return;
    this.#url = this.url;
    void this.rawPath;
    this.#rawHeaders = keep(this.#nodeRawHeaders()!);
    this.#peer = source.incoming.socket;
    this.#source = this.#environment = undefined;
  }

  /** The peer's address under `listen()`. */
  get nodePeer(): string | undefined {
    return (this.#source === undefined ? this.#peer : this.#source.incoming.socket)?.remoteAddress;
  }

  /** Node's HTTP/1.1 request and response under `listen()`, for the stages that use the socket directly. */
  get node(): NodeBindings | undefined {
    return nodeBindingsOf(this.#source, this.#environment);
  }

  /** Node's request and response, of either HTTP version, under `listen()`. */
  get exchange(): NodeExchange | undefined {
    return this.#source;
  }

  /** Whether the client has gone (connection, HTTP/2 stream or signal): an error it caused is not the server's. */
  get clientGone(): boolean {
    return clientGoneOf(this.#source, this.#received ?? this.#request);
  }

  /**
   * @internal {@link clientGone} as an error's cause. A GET or HEAD carries no body to be cut short, so its `signal` is
   * never read (Deno warns at the first read: its legacy abort); its method is asked, not its `body` (on Deno, making
   * an upgrade request's body stream breaks the upgrade). Deno's signal stays unaborted when a body is cut short.
   */
  get clientGoneMidRequest(): boolean {
    if (this.#bodyLost) return true;
    if (this.#source !== undefined) return this.clientGone;
    const method = this.#request?.method;
    if (method === undefined || method === 'GET' || method === 'HEAD' || isDenoServeInfo(this.#environment))
      return false;
    return this.clientGone;
  }

  /** @internal notes that the runtime's own body failed to read: an error it causes is the client's leaving. */
  bodyLost(): void {
    this.#bodyLost = true;
  }

  /** No filter replaced the request or its URI. */
  get isOriginalRequest(): boolean {
    return !this.#replaced;
  }

  /** The Web standard request. */
  get request(): Request {
    return (this.#request ??= webRequestOf(this.#source, this.#method, this.headers, this.url, this.#bodyTaken));
  }

  /** @internal the Web request as the server handed it (the one the runtime serving `fetch` knows). */
  get receivedRequest(): Request {
    return this.#received ?? this.request;
  }

  /** Replaces the Web request (legacy `@GZIP` inflation), keeping method, routing results and `setHeader`'s headers. */
  replaceRequest(request: Request): void {
    this.#received ??= this.request;
    this.#request = request;
    this.#replaced = true;
  }

  /** Node's request to read the body from directly, while nothing else has; a Web request made later has no body. */
  takeNodeBody(): IncomingMessage | Http2ServerRequest | undefined {
    const incoming = this.#source?.incoming;
    if (!incoming || this.#replaced || this.#bodyTaken || this.#request !== undefined || isBodyStarted(incoming))
      return undefined;
    this.#bodyTaken = true;
    return incoming;
  }

  /** The matched template's variables (none before routing). */
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

  /** Under `listen()`, a target neither normalized nor replaced: the path and query are its own. */
  protected get originTarget(): string | undefined {
    const source = this.#request === undefined ? this.#source : undefined;
    return source !== undefined && source.url === undefined ? (source.incoming.url ?? '/') : undefined;
  }

  /** Changes the request URI (absolute, or a path with optional query); only meaningful before routing. */
  setRequestUri(uri: string | URL): void {
    this.replaceRequest(remadeRequest(new URL(String(uri), this.url), this.request));
    this.forgetTarget();
  }

  /** Names the request by `origin`, path and query kept; unlike `setRequestUri`, it stays the request received. */
  moveOrigin(origin: string): void {
    const start = urlPathStart(this.url);
    const moved = origin + (start < 0 ? '/' : this.url.slice(start));
    // On Node the body is then still read from Node's request directly, at thrice the throughput of a Web stream.
    if (this.#request === undefined) return void (this.#url = moved);
    this.#received ??= this.#request;
    this.#request = remadeRequest(moved, this.#request);
  }

  get headers(): Headers {
    if (this.#headers !== undefined) return this.#headers;
    if (this.#request !== undefined) return this.#request.headers;
    return (this.#headers = headersOf(this.#source?.incoming.rawHeaders ?? this.#rawHeaders!));
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
   * A header by its lower-case name, as `headers.get(name)` answers it; on the hot path (routing), one sent once on
   * Node is read from the raw list without building a `Headers` (which alone knows how to join a repeated one).
   */
  headerValue(lowerName: string): string | null {
    const raw = this.#headers === undefined && !this.#replaced ? this.#nodeRawHeaders() : null;
    if (raw === null) return this.headers.get(lowerName);
    const value = singleRawHeader(raw, lowerName);
    return value === undefined ? this.headers.get(lowerName) : value;
  }

  #nodeRawHeaders(): readonly string[] | null {
    if (this.#rawHeaders === undefined) {
      const incoming = this.#source?.incoming ?? (this.#environment as Partial<NodeBindings> | undefined)?.incoming;
      this.#rawHeaders =
        isNodeInstance(incoming, 'node:http', 'IncomingMessage') || this.#source !== undefined
          ? incoming!.rawHeaders
          : null;
    }
    return this.#rawHeaders;
  }

  /** Answers the request with `response` without running the rest of the request stages. */
  abortWith(response: RestResponse<unknown> | Response): never {
    throw new RequestAborted(response);
  }
}
