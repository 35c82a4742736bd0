/** The span of a stream response, from its head (where the request's span ends) to its end. */
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

export function streamObserver(ctx: RequestContext): StreamObserver | undefined {
  const trace = requestTrace(ctx);
  const traced = trace && tracing();
  return traced ? new StreamSpan(traced, trace, ctx) : undefined;
}
