/** The application's Prometheus metrics in a registry of its own, named as Micrometer users know them. */
import type { Histogram, Registry } from 'prom-client';
import { CLIENT_CLOSED, ResponseContext } from '../context/response-context';
import type { RequestContext } from '../context/request-context';
import type { UnroutedAnswer } from '../context/settle';
import { isDenoServeInfo } from '../runtime/deno-serve';
import { loadPackage } from '../runtime/load-package';
import { knownMethod } from '../tracing/http-methods';
import { clusterScrape } from './cluster-metrics';

type Timer = { observe(seconds: number): void };

/** What the metrics read from the rest of the application when scraped. */
export interface MetricSources {
  readonly openStreams: () => number;
  readonly workerQueue: () => number;
  readonly streamBytes: () => number;
}

function outcomeOf(status: number): string {
  if (status < 200) return 'INFORMATIONAL';
  if (status < 300) return 'SUCCESS';
  if (status < 400) return 'REDIRECTION';
  return status < 500 ? 'CLIENT_ERROR' : 'SERVER_ERROR';
}

export class ApplicationMetrics {
  readonly #prom = loadPackage<typeof import('prom-client')>('prom-client');
  readonly registry: Registry = new this.#prom.Registry();
  readonly #requests: Histogram<'method' | 'uri' | 'status' | 'outcome'>;
  // One labelled child per endpoint (or unrouted method), method and status, found by identity: no label hashing per request.
  readonly #timers = new Map<object | string, Map<number, Timer>>();
  #defaults = false;
  /** In a cluster worker: the metrics of every worker, summed by the primary. */
  readonly #cluster: (() => Promise<string>) | undefined;

  constructor(sources: MetricSources) {
    this.#requests = new this.#prom.Histogram({
      name: 'http_server_requests_seconds',
      help: 'Duration of HTTP requests until their answer is written, by method, route template, status and outcome',
      labelNames: ['method', 'uri', 'status', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new this.#prom.Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    gauge('rxrest_streams_active', 'Stream responses being written now', sources.openStreams);
    gauge(
      'rxrest_stream_buffered_bytes',
      'Bytes the outgoing streams and WebSockets hold ahead of their clients (framework.rest.stream.total-buffer-size bounds them)',
      sources.streamBytes,
    );
    gauge('rxrest_worker_lane_queue', 'Worker-lane calls waiting for a free slot', sources.workerQueue);
    this.#cluster = clusterScrape(this.registry, () => this.registry.metrics());
    // A worker's registry is read by the primary for any worker's scrape: its process metrics run from the start.
    if (this.#cluster) this.startDefaultMetrics();
  }

  /**
   * Records one request (`started`: `performance.now()` when it arrived) by route template, never the raw path. A
   * client gone before its answer counts as 499, except on Deno, which tells that only through its legacy
   * `request.signal` (read, it aborts after every answer, and Deno warns).
   */
  readonly observe = (ctx: RequestContext, answered: number, started: number): void => {
    const seconds = (performance.now() - started) / 1000;
    const status = !isDenoServeInfo(ctx.environment) && ctx.clientGone ? CLIENT_CLOSED : answered;
    const endpoint = ctx.endpoint;
    // A method no route matched may be any token (HTTP/2, Bun, Deno, app.fetch): each would be a series kept for good.
    const method = endpoint ? ctx.method : knownMethod(ctx.method);
    const owner = endpoint ?? method;
    let byStatus = this.#timers.get(owner);
    if (!byStatus) this.#timers.set(owner, (byStatus = new Map()));
    // A HEAD a GET method answers is timed apart from the GETs, under its own label.
    const key = endpoint && endpoint.httpMethod !== method ? -status : status;
    let timer = byStatus.get(key);
    if (!timer) {
      const uri = endpoint?.pathTemplate ?? (status === 404 ? 'NOT_FOUND' : 'UNKNOWN');
      byStatus.set(key, (timer = this.#requests.labels(method, uri, String(status), outcomeOf(status))));
    }
    timer.observe(seconds);
  };

  /** At the first scrape, not at build: each keeps an event-loop monitor running for good (tests build hundreds). */
  startDefaultMetrics(): void {
    if (this.#defaults) return;
    this.#defaults = true;
    this.#prom.collectDefaultMetrics({ register: this.registry });
  }

  answer(path: string): UnroutedAnswer {
    return (ctx) => {
      if (ctx.rawPath !== path || ctx.method !== 'GET') return undefined;
      this.startDefaultMetrics();
      return (this.#cluster?.() ?? this.registry.metrics()).then(
        (text) => ((ctx.response = new ResponseContext(200, text, undefined, this.registry.contentType)), ctx),
      );
    };
  }
}
