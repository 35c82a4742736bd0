/** The OpenTelemetry API, loaded once an SDK is registered; nothing of the server (the REST client uses it too). */
import { loadPackage } from '../runtime/load-package';
import type * as Api from '@opentelemetry/api';

/** Where the API (major version 1) keeps what an SDK registered. */
const GLOBAL = Symbol.for('opentelemetry.js.api.1');

export interface Tracing {
  readonly api: typeof Api;
  readonly tracer: Api.Tracer;
}

let loaded: Tracing | undefined;

/** The tracing of this process: `undefined` until an SDK registered a tracer provider. */
export function openTelemetry(): Tracing | undefined {
  if (loaded) return loaded;
  const registry = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL];
  if (registry?.trace === undefined) return undefined;
  const api = loadPackage<typeof Api>('@opentelemetry/api');
  return (loaded = { api, tracer: api.trace.getTracer('rxrest') });
}

/** The W3C headers (`traceparent`, `tracestate`, `baggage`) of a Web `Headers`. */
export const headersGetter: Api.TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

export const headersSetter: Api.TextMapSetter<Headers> = {
  set: (headers, key, value) => headers.set(key, value),
};
