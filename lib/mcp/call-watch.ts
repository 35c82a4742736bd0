/** Watches an MCP request to its response or cancellation: an OpenTelemetry span and a Prometheus histogram. */
import type * as Api from '@opentelemetry/api';
import type { Histogram, Registry } from 'prom-client';
import { Observable } from 'rxjs/internal/Observable';
import { tap } from 'rxjs/internal/operators/tap';
import type { RequestContext } from '../context/request-context';
import { loadPackage } from '../runtime/load-package';
import { requestTrace } from '../tracing/request-span';
import { tracing, type Tracing } from '../tracing/tracing';
import { isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from './json-rpc';
import type { McpSession } from './mcp-session';
import type { MetricLabels } from './metric-labels';
import type { RequestScope } from './server-methods';

/** Work runs in the span's context; `end(undefined)`: cancelled. */
interface Watch {
  run<T>(work: () => T): T;
  end(response: JsonRpcResponse | undefined): void;
}

function outcomeOf(response: JsonRpcResponse | undefined): 'success' | 'tool_error' | 'error' | 'cancelled' {
  if (response === undefined) return 'cancelled';
  if (response.error) return 'error';
  return (response.result as { isError?: unknown } | undefined)?.isError === true ? 'tool_error' : 'success';
}

/**
 * A child of the HTTP request's span, and the context it is active in: named by what the server serves (`labels`), as
 * a made-up method, tool name or URI would name a span each; its attributes say what the client sent.
 */
function startSpan(traced: Tracing, { ctx, session }: RequestScope, request: JsonRpcRequest, labels: MetricLabels) {
  const { api, tracer } = traced;
  const named = request.params?.name ?? request.params?.uri;
  const target = typeof named === 'string' ? named : undefined;
  const attributes: Api.Attributes = {
    'mcp.method.name': request.method,
    'mcp.session.id': session.id,
    'mcp.protocol.version': session.facts.protocolVersion,
    'jsonrpc.request.id': String(request.id),
  };
  if (request.method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (target !== undefined) attributes['mcp.resource.uri'] = target;
  const parent = requestTrace(ctx)?.context ?? api.context.active();
  const name = labels.target === '' ? labels.method : `${labels.method} ${labels.target}`;
  const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
  return { span, active: api.trace.setSpan(parent, span) };
}

function endSpan(traced: Tracing, span: Api.Span, response: JsonRpcResponse | undefined): void {
  const outcome = outcomeOf(response);
  if (outcome === 'cancelled') span.setAttribute('rxrest.mcp.cancelled', true);
  else if (outcome === 'error') {
    span.setAttribute('rpc.jsonrpc.error_code', response!.error!.code);
    span.setAttribute('error.type', String(response!.error!.code));
    span.setStatus({ code: traced.api.SpanStatusCode.ERROR, message: response!.error!.message });
  } else if (outcome === 'tool_error') {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: traced.api.SpanStatusCode.ERROR });
  }
  span.end();
}

export class CallWatch {
  readonly #registry: () => Registry | undefined;
  readonly #labels: (request: JsonRpcRequest) => MetricLabels;
  #histogram: Histogram<'method' | 'target' | 'outcome'> | undefined;

  /** `registry` is asked on first use: it is made after the build. */
  constructor(registry: () => Registry | undefined, labels: (request: JsonRpcRequest) => MetricLabels) {
    this.#registry = registry;
    this.#labels = labels;
  }

  #timer(): Histogram<'method' | 'target' | 'outcome'> | undefined {
    if (this.#histogram) return this.#histogram;
    const registry = this.#registry();
    if (!registry) return undefined;
    const { Histogram: Made } = loadPackage<typeof import('prom-client')>('prom-client');
    this.#histogram = new Made({
      name: 'rxrest_mcp_requests_seconds',
      help: 'Duration of MCP requests until their response (a tool call: the whole call), by method, tool or prompt or resource, and outcome',
      labelNames: ['method', 'target', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300],
      registers: [registry],
    });
    return this.#histogram;
  }

  /** `undefined` when the application neither traces nor measures. */
  #start(request: JsonRpcRequest, scope: RequestScope): Watch | undefined {
    const histogram = this.#timer();
    const traced = tracing();
    if (!histogram && !traced) return undefined;
    const started = performance.now();
    const labels = this.#labels(request);
    const span = traced && startSpan(traced, scope, request, labels);
    return {
      run: (work) => (span ? traced!.api.context.with(span.active, work) : work()),
      end: (response) => {
        if (span) endSpan(traced!, span.span, response);
        const seconds = (performance.now() - started) / 1000;
        histogram?.observe({ ...labels, outcome: outcomeOf(response) }, seconds);
      },
    };
  }

  call(request: JsonRpcRequest, scope: RequestScope, messages: Observable<JsonRpcMessage>): Observable<JsonRpcMessage> {
    return new Observable<JsonRpcMessage>((subscriber) => {
      const watch = this.#start(request, scope);
      if (!watch) return messages.subscribe(subscriber);
      let response: JsonRpcResponse | undefined;
      const noted = messages.pipe(tap((message) => isResponse(message) && (response = message)));
      const subscription = watch.run(() => noted.subscribe(subscriber));
      return () => {
        subscription.unsubscribe();
        watch.end(response);
      };
    });
  }

  answer(
    request: JsonRpcRequest,
    scope: RequestScope,
    answer: () => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse> {
    const watch = this.#start(request, scope);
    if (!watch) return answer();
    return watch.run(answer).then((response) => (watch.end(response), response));
  }
}
