/** `RestClient.create(Resource, { baseUrl })`: a cold Observable per endpoint method; unsubscribing aborts the call. */
import { Observable } from 'rxjs/internal/Observable';
import { DefaultJsonMapper } from '../json/default-json-mapper';
import { isJsonMapperCustomizer, type JsonMapper, type JsonMapperCustomizer } from '../json/json-mapper';
import { answerLimits, type AnswerLimits } from './answer-limits';
import { exceptionFor } from './client-errors';
import { unexpectedType } from './response-processing';
import { clientSide, isReader, isWriter, withinMediaTypes, type ClientProvider } from './client-providers';
import type { MessageBodyReader, MessageBodyWriter } from '../body/message-body';
import { headersSetter, openTelemetry } from '../tracing/open-telemetry';
import { clientEndpoints, type ClientEndpoint } from './client-endpoints';
import { networkFailure } from './network-failure';
import type { ClientEventsOf, RestClientOf } from './client-types';
import { readResponse, type ResponseReaders } from './read-response';
import { resumingCall, type OpenCall } from './resuming-call';
import {
  writeRequest,
  type CallOptions,
  type OutgoingRequest,
  type ReconnectOptions,
  type RequestWriters,
} from './write-request';

/** The request as a client request filter sees it: change the URL, headers or body, or answer it yourself. */
export interface ClientRequestContext {
  readonly method: string;
  url: URL;
  readonly headers: Headers;
  /** The entity the body was written from (`undefined` without a body). */
  readonly entity: unknown;
  /** Answers the call with this response instead of sending the request (later filters are skipped). */
  abortWith(response: Response): void;
}

/** The answer as a client response filter sees it, before it is read or turned into an exception. */
export interface ClientResponseContext {
  readonly status: number;
  readonly headers: Headers;
  /** The whole answer; a filter may replace it (e.g. after refreshing a token and retrying). */
  response: Response;
}

/** Runs before each request is sent, in the order registered. */
export interface ClientRequestFilter {
  filter(request: ClientRequestContext): void | Promise<void>;
}

/** Runs on each answer (2xx or not) before it is read, in the order registered. */
export interface ClientResponseFilter {
  filter(request: ClientRequestContext, response: ClientResponseContext): void | Promise<void>;
}

export type { ClientProvider } from './client-providers';

export interface RestClientOptions {
  /** Where the resource paths start, the application path included: `http://localhost:8080/api`. */
  readonly baseUrl: string | URL;
  /** Headers sent with every request (a call's `$with({ headers })` wins). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly requestFilters?: readonly ClientProvider<ClientRequestFilter>[];
  readonly responseFilters?: readonly ClientProvider<ClientResponseFilter>[];
  /** Readers and writers for types or media types of your own, asked before the built-in JSON and text. */
  readonly providers?: readonly ClientProvider<
    MessageBodyReader | MessageBodyWriter | JsonMapperCustomizer<DefaultJsonMapper>
  >[];
  /** The JSON mapper that writes bodies and reads answers; by default one configured like the server's defaults. */
  readonly jsonMapper?: JsonMapper;
  /** The fetch to use (default: the global one), e.g. one with a proxy agent, or a test double. */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** How calls to methods taking `Last-Event-ID` reconnect their SSE answers (a call's `$with({ reconnect })` wins). */
  readonly reconnect?: ReconnectOptions | false;
  /** How much of an answer a call holds at most (10 MiB whole, 1 Mi characters an item, by default). */
  readonly limits?: AnswerLimits;
}

/** Extra controls of a client, named with `$` so they never clash with a resource's methods. */
export interface ClientControls<T> {
  /** The same client with these options on every call: `accept` replaces the `Accept` from `@Produces`. */
  $with(options: CallOptions): RestClient<T>;
  /** The same calls emitting whole SSE events (`data`, `id`, `event`) instead of their data. */
  readonly $events: ClientEventsOf<T>;
}

/** What `RestClient.create` returns: the resource's endpoint methods as Observable-returning calls. */
export type RestClient<T> = RestClientOf<T> & ClientControls<T>;

type ClientSetup = ReturnType<typeof setUp>;

function setUp(type: Function, options: RestClientOptions) {
  const providers = (options.providers ?? []).map(clientSide);
  const json = options.jsonMapper ?? new DefaultJsonMapper();
  if (!options.jsonMapper)
    for (const customizer of providers.filter(isJsonMapperCustomizer)) customizer.customize(json);
  return {
    endpoints: clientEndpoints(type),
    baseUrl: String(options.baseUrl),
    headers: options.headers ?? {},
    requestFilters: (options.requestFilters ?? []).map(clientSide),
    responseFilters: (options.responseFilters ?? []).map(clientSide),
    writers: { json, writers: providers.filter(isWriter).map((writer) => withinMediaTypes(writer)) },
    readers: {
      json,
      readers: providers.filter(isReader).map((reader) => withinMediaTypes(reader)),
      limits: answerLimits(options.limits),
    },
    fetch: options.fetch ?? ((input: Request) => fetch(input)),
  };
}

/** Request filters in order; the first `abortWith` answers instead of the server. */
async function filterRequest(
  setup: ClientSetup,
  request: OutgoingRequest,
): Promise<{ context: ClientRequestContext; answer: Response | undefined }> {
  let answer: Response | undefined;
  // The filters change the request itself: its URL and headers are what is sent.
  const context: ClientRequestContext = Object.assign(request, {
    abortWith: (response: Response) => void (answer ??= response),
  });
  for (const filter of setup.requestFilters) {
    await filter.filter(context);
    if (answer) break;
  }
  return { context, answer };
}

async function send(
  setup: ClientSetup,
  endpoint: ClientEndpoint,
  args: readonly unknown[],
  call: CallOptions,
  signal: AbortSignal,
): Promise<Response> {
  const headers = { ...setup.headers, ...call.headers };
  const request = await writeRequest(endpoint, args, setup.baseUrl, { accept: call.accept, headers }, setup.writers);
  const { context, answer } = await filterRequest(setup, request);
  // A stream body needs half duplex: fetch sends it while the answer may already be coming.
  const duplex = request.body instanceof ReadableStream ? ('half' as const) : undefined;
  const init = { method: request.method, headers: request.headers, body: request.body, signal, duplex };
  let response = answer ?? (await traced(setup, endpoint, request, init));
  const responseContext: ClientResponseContext = { status: response.status, headers: response.headers, response };
  for (const filter of setup.responseFilters) await filter.filter(context, responseContext);
  response = responseContext.response;
  if (response.status < 200 || response.status >= 300)
    throw await exceptionFor(response, setup.readers.limits.maxBodySize);
  // A proxy's page, or bytes where JSON was promised: never emitted as what the method returns.
  const accepted = call.accept === undefined ? endpoint.produces : call.accept.split(',');
  const readable = (type: string) => setup.readers.readers.some((reader) => reader.isReadable(endpoint.bindTo, type));
  const unexpected = unexpectedType(response, accepted, readable);
  if (unexpected) {
    await response.body?.cancel().catch(() => undefined);
    throw unexpected;
  }
  return response;
}

/** With an OpenTelemetry SDK registered, in a client span ended when the answer's head is in (4xx and 5xx fail it). */
async function traced(
  setup: ClientSetup,
  endpoint: ClientEndpoint,
  request: OutgoingRequest,
  init: RequestInit,
): Promise<Response> {
  const otel = openTelemetry();
  if (!otel) return setup.fetch(new Request(request.url, init)).catch(networkFailure);
  const { api, tracer } = otel;
  const span = tracer.startSpan(`${request.method} ${endpoint.template.replace(/^\/?/, '/')}`, {
    kind: api.SpanKind.CLIENT,
    attributes: {
      'http.request.method': request.method,
      'url.full': request.url.toString(),
      'server.address': request.url.hostname,
      'server.port': Number(request.url.port || (request.url.protocol === 'https:' ? 443 : 80)),
    },
  });
  const headers = new Headers(init.headers);
  api.propagation.inject(api.trace.setSpan(api.context.active(), span), headers, headersSetter);
  const fail = (type: string) => span.setStatus({ code: api.SpanStatusCode.ERROR }).setAttribute('error.type', type);
  try {
    const response = await setup.fetch(new Request(request.url, { ...init, headers }));
    span.setAttribute('http.response.status_code', response.status);
    if (response.status >= 400) fail(String(response.status));
    return response;
  } catch (error) {
    fail(error instanceof Error ? error.name : 'Error');
    return networkFailure(error);
  } finally {
    span.end();
  }
}

/** One call as a cold Observable: sent on subscribe, aborted on unsubscribe; a resumable stream reconnects. */
function call(
  setup: ClientSetup,
  endpoint: ClientEndpoint,
  args: readonly unknown[],
  options: CallOptions,
  asEvents: boolean,
): Observable<unknown> {
  if (endpoint.resumable && options.reconnect !== false) {
    const open: OpenCall = (signal, lastEventId) => {
      const headers =
        lastEventId === undefined ? options.headers : { ...options.headers, 'Last-Event-ID': lastEventId };
      return send(setup, endpoint, args, { ...options, headers }, signal);
    };
    return resumingCall(open, endpoint, setup.readers, options.reconnect ?? {}, asEvents);
  }
  return new Observable<unknown>((subscriber) => {
    const aborter = new AbortController();
    // Subscribing the subscriber itself: unsubscribing it stops the reading too.
    send(setup, endpoint, args, options, aborter.signal).then(
      (response) =>
        subscriber.closed || readResponse(response, endpoint, setup.readers, asEvents).subscribe(subscriber),
      (error: unknown) => subscriber.error(error),
    );
    return () => aborter.abort();
  });
}

function clientOf<T>(setup: ClientSetup, options: CallOptions): RestClient<T> {
  const methods = (asEvents: boolean): Record<string, (...args: unknown[]) => Observable<unknown>> => {
    const result: Record<string, (...args: unknown[]) => Observable<unknown>> = {};
    for (const [name, endpoint] of setup.endpoints)
      result[name] = (...args: unknown[]) => call(setup, endpoint, args, options, asEvents);
    return result;
  };
  const client = methods(false);
  Object.defineProperty(client, '$with', {
    value: (more: CallOptions) =>
      clientOf<T>(setup, {
        accept: more.accept ?? options.accept,
        headers: { ...options.headers, ...more.headers },
        reconnect: more.reconnect ?? options.reconnect,
      }),
  });
  Object.defineProperty(client, '$events', { get: () => methods(true) });
  return client as unknown as RestClient<T>;
}

/**
 * Typed REST clients made from resource classes: the same decorators describe the request (path, parameters,
 * body, media types) and how the answer is read.
 *
 * @example
 * const fruits = RestClient.create(FruitResource, { baseUrl: 'http://localhost:8080' });
 * fruits.list().subscribe((list) => console.log(list));
 */
export const RestClient = {
  create<T>(resource: abstract new (...args: never[]) => T, options: RestClientOptions): RestClient<T> {
    return clientOf<T>(setUp(resource, options), { reconnect: options.reconnect });
  },
};
