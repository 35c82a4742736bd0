/**
 * MCP requests in the application's Prometheus metrics (`framework.metrics.enabled`):
 * `rxrest_mcp_requests_seconds` by method, tool (or prompt, or resource) and outcome, from the request to its
 * response — for a tool call, the whole call, which may outlast its HTTP request. prom-client is only loaded when
 * metrics are on.
 */
import type { Histogram, Registry } from 'prom-client';
import { Observable } from 'rxjs/internal/Observable';
import { isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from './json-rpc';

/** How a request ended: answered, a tool's error result, a JSON-RPC error, or cancelled before its answer. */
type Outcome = 'success' | 'tool_error' | 'error' | 'cancelled';

function outcomeOf(response: JsonRpcResponse | undefined): Outcome {
  if (response === undefined) return 'cancelled';
  if (response.error) return 'error';
  return (response.result as { isError?: unknown } | undefined)?.isError === true ? 'tool_error' : 'success';
}

function targetOf(request: JsonRpcRequest): string {
  const target = request.params?.name ?? request.params?.uri;
  return typeof target === 'string' ? target : '';
}

export class CallMetrics {
  readonly #registry: () => Registry | undefined;
  #histogram: Histogram<'method' | 'target' | 'outcome'> | undefined;

  /** `registry` is the application's, when metrics are on (asked on first use: it is made after the build). */
  constructor(registry: () => Registry | undefined) {
    this.#registry = registry;
  }

  #timer(): Histogram<'method' | 'target' | 'outcome'> | undefined {
    if (this.#histogram) return this.#histogram;
    const registry = this.#registry();
    if (!registry) return undefined;
    const { Histogram: Made } = require('prom-client') as typeof import('prom-client');
    this.#histogram = new Made({
      name: 'rxrest_mcp_requests_seconds',
      help: 'Duration of MCP requests until their response (a tool call: the whole call), by method, tool or prompt or resource, and outcome',
      labelNames: ['method', 'target', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300],
      registers: [registry],
    });
    return this.#histogram;
  }

  #observe(request: JsonRpcRequest, started: number, response: JsonRpcResponse | undefined): void {
    const seconds = (performance.now() - started) / 1000;
    this.#histogram?.observe(
      { method: request.method, target: targetOf(request), outcome: outcomeOf(response) },
      seconds,
    );
  }

  /** A call's messages, timed until its response (or its cancellation). */
  call(request: JsonRpcRequest, messages: Observable<JsonRpcMessage>): Observable<JsonRpcMessage> {
    if (!this.#timer()) return messages;
    return new Observable<JsonRpcMessage>((subscriber) => {
      const started = performance.now();
      let response: JsonRpcResponse | undefined;
      const subscription = messages.subscribe({
        next: (message) => {
          if (isResponse(message)) response = message;
          subscriber.next(message);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        subscription.unsubscribe();
        this.#observe(request, started, response);
      };
    });
  }

  /** One answer, timed. */
  answer(request: JsonRpcRequest, answer: () => Promise<JsonRpcResponse>): Promise<JsonRpcResponse> {
    if (!this.#timer()) return answer();
    const started = performance.now();
    return answer().then((response) => (this.#observe(request, started, response), response));
  }
}
