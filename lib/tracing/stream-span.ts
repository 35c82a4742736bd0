/**
 * The span of a stream response: it starts when the head is written (where the request's span ends) and covers the
 * stream, a child of the request's span that outlives it, with a link to it, so that the request's duration stays
 * the time to the first byte. It counts the items sent, those an overflow policy dropped, and the bytes, and says
 * how the stream ended (`complete`, `client-gone`, `overflow`, `error`, `shutdown`, `expired`), with events for the
 * first item and the end.
 */
import type * as Api from '@opentelemetry/api';
import type { RequestContext } from '../context/request-context';
import type { StreamEnd, StreamObserver } from '../streaming/stream-observer';
import { requestTrace, type RequestTrace } from './request-span';
import { tracing, type Tracing } from './tracing';
import { utf8Length } from '../runtime/bytes';

const now = (): number => performance.timeOrigin + performance.now();

class StreamSpan implements StreamObserver {
  #span: Api.Span | undefined;
  #items = 0;
  #dropped = 0;
  #bytes = 0;
  #firstItemAt: number | undefined;

  constructor(
    readonly tracing: Tracing,
    readonly trace: RequestTrace,
    readonly ctx: RequestContext,
  ) {}

  opened(): void {
    const { api, tracer } = this.tracing;
    this.trace.headWritten();
    const route = this.ctx.endpoint?.pathTemplate;
    this.#span = tracer.startSpan(
      `${this.ctx.method} ${route ?? ''} stream`.replace('  ', ' '),
      {
        kind: api.SpanKind.INTERNAL,
        links: [{ context: this.trace.span.spanContext() }],
        attributes: route ? { 'http.route': route } : {},
      },
      this.trace.context,
    );
    if (this.#firstItemAt !== undefined) this.#span.addEvent('first item', this.#firstItemAt);
  }

  items(count: number): void {
    if (this.#items === 0 && count > 0) {
      this.#firstItemAt = now();
      this.#span?.addEvent('first item', this.#firstItemAt);
    }
    this.#items += count;
  }

  dropped(count: number): void {
    this.#dropped += count;
  }

  /** The bytes on the wire: a chunk of bytes as it is, text as UTF-8 (a broadcast tick's bytes and a stream's text alike). */
  wrote(chunk: string | Uint8Array): void {
    this.#bytes += typeof chunk === 'string' ? utf8Length(chunk) : chunk.byteLength;
  }

  closed(reason: StreamEnd): void {
    const span = this.#span;
    if (!span) return;
    span.setAttributes({
      'rxrest.stream.items': this.#items - this.#dropped,
      'rxrest.stream.dropped': this.#dropped,
      'rxrest.stream.bytes': this.#bytes,
      'rxrest.stream.end_reason': reason,
    });
    span.addEvent('end', { 'rxrest.stream.end_reason': reason });
    if (reason === 'error' || reason === 'overflow')
      span.setStatus({ code: this.tracing.api.SpanStatusCode.ERROR, message: reason });
    span.end();
  }
}

/** The span watcher of a stream response of `ctx`, when the request is traced. */
export function streamObserver(ctx: RequestContext): StreamObserver | undefined {
  const trace = requestTrace(ctx);
  const traced = trace && tracing();
  return traced ? new StreamSpan(traced, trace, ctx) : undefined;
}
