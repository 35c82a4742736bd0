/** The server span of a request, ended when the head is written: the time to the first byte, also for a stream. */
import type * as Api from '@opentelemetry/api';
import type { RequestContext } from '../context/request-context';
import { knownMethod } from './http-methods';
import { headersGetter } from './open-telemetry';
import { tracing, type Tracing } from './tracing';
import { ContextKey } from '../context/context-key';
import { defineFeature } from '../feature/define-feature';

const TRACE = new ContextKey<RequestTrace>('trace');

export interface RequestTrace {
  readonly span: Api.Span;
  /** The context the span is active in. */
  readonly context: Api.Context;
  /** Ends the span: the answer's head is written (once; a stream says so as it starts, before its first write). */
  readonly headWritten: () => void;
}

export function requestTrace(ctx: RequestContext): RequestTrace | undefined {
  return ctx.get(TRACE);
}

function startAttributes(ctx: RequestContext, method: string): Api.Attributes {
  const url = new URL(ctx.url);
  const attributes: Api.Attributes = {
    'http.request.method': method,
    'url.scheme': url.protocol.slice(0, -1),
    'url.path': url.pathname,
    'server.address': url.hostname,
    'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  };
  if (method !== ctx.method) attributes['http.request.method_original'] = ctx.method;
  if (url.search) attributes['url.query'] = url.search.slice(1);
  const agent = ctx.headers.get('user-agent');
  if (agent) attributes['user_agent.original'] = agent;
  return attributes;
}

function finish(tracing: Tracing, ctx: RequestContext, span: Api.Span): void {
  const route = ctx.endpoint?.pathTemplate;
  if (route) {
    span.updateName(`${ctx.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  const status = ctx.response?.status;
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  const { error } = ctx;
  if (error instanceof Error) span.recordException(error);
  // What the exception mappers made of an error, not only what was thrown: a 5xx answer is an error of the server.
  if (status === undefined || status >= 500) {
    if (error instanceof Error) span.setAttribute('error.type', error.constructor.name);
    else if (error !== null && (error !== undefined || status !== undefined))
      span.setAttribute('error.type', String(status));
    span.setStatus({ code: tracing.api.SpanStatusCode.ERROR });
  }
  span.end();
}

function traceRequest<T>(tracing: Tracing, ctx: RequestContext, run: () => T | Promise<T>): T | Promise<T> {
  const { api, tracer } = tracing;
  const parent = api.propagation.extract(api.ROOT_CONTEXT, ctx.headers, headersGetter);
  // Named by a method no route matched, a client would name a span each (the conventions' `HTTP` for another).
  const method = knownMethod(ctx.method);
  const name = method === '_OTHER' ? 'HTTP' : method;
  const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes: startAttributes(ctx, method) }, parent);
  const context = api.trace.setSpan(parent, span);
  let ended = false;
  const headWritten = () => {
    if (ended) return;
    ended = true;
    finish(tracing, ctx, span);
  };
  ctx.set(TRACE, { span, context, headWritten } satisfies RequestTrace);
  let result: T | Promise<T>;
  try {
    result = api.context.with(context, run);
  } catch (error) {
    headWritten();
    throw error;
  }
  if (result instanceof Promise) return result.finally(headWritten);
  headWritten();
  return result;
}

/** What runs a request in its server span, once an OpenTelemetry SDK is registered (asked per request). */
export function requestSpan(ctx: RequestContext): (<T>(run: () => T) => T) | undefined {
  const traced = tracing();
  // A Promise `run` answers with stays one: the span only ends when it settles.
  return traced && (<T>(run: () => T) => traceRequest(traced, ctx, run) as T);
}

/** Tracing as a feature: a no-op until an OpenTelemetry SDK is registered (asked per request, so a late one counts). */
export const tracingFeature = defineFeature({
  name: 'tracing',
  settings: [],
  phases: ['receive', 'write', 'complete'],
  transports: {
    answer: 'a server span per request, ended when the head is written; W3C trace context read from the request',
    stream: 'a span of its own per stream, with items, drops, bytes and why it ended',
    upgrade: 'the upgrade request is traced like any request',
    message: 'broadcast publishes and deliveries carry the trace context across the backplane',
  },
  build: () => ({ around: requestSpan }),
});
