/** The invoke step's stream branch: a stream result becomes a primed `StreamBody` response. */
import { Observable } from 'rxjs/internal/Observable';
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { whenCredentialExpires } from '../security/expiry-timer';
import { baseType, isStreamingType } from '../http/streaming-types';
import { framingFor } from '../streaming/framing';
import { RestMulti } from '../streaming/rest-multi';
import { StreamBody } from '../streaming/stream-body';
import { trackStarted } from '../streaming/started-bodies';
import { createPump, withBuffer, type StreamPump, type StreamSettings } from '../streaming/stream-pump';
import { toStreamSource } from '../streaming/stream-source';
import { streamObserver } from '../tracing/stream-span';

/** What the build step decided about an endpoint's streams. */
export interface EndpointStreaming {
  readonly settings: StreamSettings;
  /** `@RestStreamElementType`: how SSE data is serialized. */
  readonly elementType: string | undefined;
  /** Plain Observables stream too (every `@Produces` type of the endpoint is a streaming one). */
  readonly observables: boolean;
  /** Source errors raised after the response was committed. */
  readonly onError: (error: unknown) => void;
  /** A stream ends when the credential that opened it expires (`framework.security.streams.end-on-expiry`). */
  readonly endsOnExpiry?: boolean;
}

/** The last event of an SSE stream whose credential expired: the client gets a new one and reconnects. */
const EXPIRED_FRAME = 'event:expired\ndata:credential expired\n\n';

/** A Multi without `@Produces` is a JSON array (the Java framework rejects it; see docs/streaming.md). */
const DEFAULT_STREAM_TYPE = 'application/json';

/**
 * When `result` is a stream (Multi, async iterable, Web or Node stream, an Observable under a streaming type), primes
 * it and sets `ctx.response` once its first item (or end) is there, an error before going to the mappers; else none.
 */
export function settleStream(
  ctx: RequestContext,
  result: unknown,
  streaming: EndpointStreaming,
): RequestContext | Promise<RequestContext> | undefined {
  const restMulti = result instanceof RestMulti ? (result as RestMulti<unknown>) : undefined;
  const value = restMulti ? restMulti.source : result;
  const negotiated = ctx.negotiated ?? DEFAULT_STREAM_TYPE;
  const source = toStreamSource(
    value,
    restMulti !== undefined || streaming.observables || (value instanceof Observable && isStreamingType(negotiated)),
  );
  if (!source) return undefined;
  const asLines = restMulti?.jsonArray === false && baseType(negotiated) === 'application/json';
  const framing = asLines
    ? { ...framingFor('application/x-ndjson'), mediaType: negotiated }
    : framingFor(negotiated, streaming.elementType);
  const pump = createPump(
    source,
    framing,
    withBuffer(streaming.settings, restMulti?.bufferSize, restMulti?.overflow),
    streaming.onError,
    streamObserver(ctx),
  );
  if (streaming.endsOnExpiry) {
    const cancel = whenCredentialExpires(ctx, () => pump.endEarly(EXPIRED_FRAME, 'expired'));
    if (cancel) pump.whenClosed(cancel);
  }
  const body = new StreamBody(pump);
  const response = new ResponseContext(restMulti?.statusCode ?? 200, body);
  trackStarted(ctx, body);
  for (const [name, headerValue] of restMulti?.headers ?? []) response.headers.add(name, headerValue);
  if (streaming.elementType && framing.mediaType === 'text/event-stream')
    response.headers.set('x-sse-content-type', streaming.elementType);
  if (framing.itemsHeader) response.headers.set(framing.itemsHeader[0], framing.itemsHeader[1]);
  const primed = pump.prime();
  if (primed === undefined) return answer(ctx, response, pump);
  return primed.then(() => answer(ctx, response, pump));
}

/** The response once the pump is primed: with the header its first item asked for, if it came before the head. */
function answer(ctx: RequestContext, response: ResponseContext, pump: StreamPump): RequestContext {
  const header = pump.header;
  if (header) response.headers.set(header[0], header[1]);
  ctx.response = response;
  return ctx;
}
