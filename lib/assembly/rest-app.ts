/** A built application: what `RestApplication.build()` returns, served with `listen()` or called with `fetch()`. */
import { servedUrlGuard } from '../server/served-url';
import type { Registry } from 'prom-client';
import { BROADCAST } from '../broadcast/broadcast-feature';
import type { ApplicationBroadcast } from '../broadcast/application-broadcast';
import { Broadcaster, type BroadcasterOptions } from '../broadcast/broadcaster';
import { applicationTopic } from '../broadcast/framework-topics';
import type { Config } from '../config';
import { METRICS } from '../metrics/metrics-feature';
import { OPENAPI } from '../openapi/openapi-feature';
import type { OpenApiDocument } from '../openapi/openapi-document';
import type { RequestPipeline } from '../pipeline/request-pipeline';
import { listen, type RunningServer } from '../server/listen';
import { tlsSettings, type TlsSettings } from '../server/tls-settings';
import { superviseWorkers } from '../server/workers';
import { isClusterPrimary } from '../runtime/node-builtins';
import type { OpenStreams } from '../streaming/open-streams';
import { HOSTS } from '../security/allowed-hosts-feature';
import { NOSNIFF } from '../security/nosniff';
import type { BuildScope } from './build-scope';
import type { JoinedFeatures } from './join-features';
import type { EndpointSummary } from './compile-endpoints';

// Streams still open this long before the shutdown timeout are ended cleanly, before connections are cut.
const STREAM_END_MARGIN_MS = 200;

/** What the build step hands a built application. */
interface RestAppParts {
  readonly scope: BuildScope;
  readonly pipeline: RequestPipeline;
  readonly endpoints: readonly EndpointSummary[];
  readonly openStreams: OpenStreams;
  readonly features: JoinedFeatures;
}

/** A built application: serve it with `listen()`, or call `fetch()` in process. */
export class RestApp {
  readonly config: Config;
  readonly endpoints: readonly EndpointSummary[];
  readonly #parts: RestAppParts;
  readonly #broadcast: () => ApplicationBroadcast;
  readonly #tls: TlsSettings | undefined;
  /** The prom-client registry `framework.metrics.path` serves (absent when disabled): register your metrics on it. */
  readonly metrics: Registry | undefined;

  constructor(parts: RestAppParts) {
    const { scope } = parts;
    this.config = scope.config;
    this.#parts = parts;
    this.endpoints = parts.endpoints;
    this.#broadcast = scope.find(BROADCAST)!;
    this.metrics = scope.find(METRICS)?.registry;
    // The certificate files are read now: a start with TLS configured never goes on without it.
    this.#tls = tlsSettings(scope.config, scope.directory);
    this.fetch = servedUrlGuard(parts.pipeline.fetch, scope.config.get('framework.http.nosniff'));
  }

  /**
   * The application's OpenAPI 3.2 document, as `framework.openapi.path` serves it (made on first use from
   * what `build()` gathered, then kept).
   *
   * @example
   * writeFileSync('openapi.json', JSON.stringify(app.openapi(), null, 2));
   */
  openapi(): OpenApiDocument {
    return this.#parts.scope.find(OPENAPI)!();
  }

  /**
   * The Web-standard fetch handler: answers a request in process (no socket, e.g. in tests), and is what
   * `listen()` serves. Mount it in a larger Hono app with `hono.mount('/', app.fetch)`.
   *
   * @example
   * const response = await app.fetch(new Request('http://localhost/fruits'));
   */
  readonly fetch: (request: Request, env?: unknown, executionCtx?: unknown) => Response | Promise<Response>;

  /**
   * The broadcaster of `topic` in this application: what `broadcast(topic)` means within its requests, for code
   * that runs outside them (a timer, a queue consumer) while other applications run in the same process.
   *
   * @example
   * setInterval(() => void app.broadcast<Tick>('ticks').publish({ at: Date.now() }), 1000).unref();
   */
  broadcast<T>(topic: string, options: BroadcasterOptions = {}): Broadcaster<T> {
    return new Broadcaster<T>(applicationTopic(topic), options, this.#broadcast().topics);
  }

  /**
   * Releases what the application holds besides a server (the Redis connections of the broadcast backplane and of
   * shared rate limits). `listen()`'s shutdown calls it once the server has closed; call it after `fetch()` alone.
   */
  close(): Promise<void> {
    return this.#parts.features.close();
  }

  /**
   * Serves the application on Node's own HTTP servers; port and host default to the configuration. With
   * `framework.http.workers` above 1, the first process forks that many `node:cluster` workers running the
   * same program (each builds the application and serves in its own `listen()`), and only supervises them.
   */
  listen(options: { port?: number; host?: string; handleSignals?: boolean } = {}): Promise<RunningServer> {
    const { config } = this;
    const host = options.host ?? config.get('framework.http.host');
    const workers = config.get('framework.http.workers');
    if (workers > 1 && isClusterPrimary()) {
      return superviseWorkers({
        count: workers,
        host,
        shutdownTimeout: config.get('framework.shutdown.timeout'),
        handleSignals: options.handleSignals,
        aggregateMetrics: config.get('framework.metrics.enabled'),
      });
    }
    return listen(this.#parts.pipeline.serve, {
      port: options.port ?? config.get('framework.http.port'),
      host,
      requestTimeout: config.get('framework.http.request-timeout'),
      headersTimeout: config.get('framework.http.headers-timeout'),
      keepAliveTimeout: config.get('framework.http.keep-alive-timeout'),
      bodyIdleTimeout: config.get('framework.http.body-idle-timeout'),
      maxConcurrentStreams: config.get('framework.http.limits.max-concurrent-streams'),
      shutdownTimeout: config.get('framework.shutdown.timeout'),
      handleSignals: options.handleSignals,
      drainLimit: config.get('framework.http.limits.max-body-size'),
      tls: this.#tls,
      h2c: config.get('framework.http.h2c'),
      hosts: this.#parts.scope.find(HOSTS),
      nosniff: this.#parts.scope.find(NOSNIFF),
      onClosed: () => this.close(),
      // The features learn of it first (readiness answers DOWN, sockets close with 1001 after their queued messages);
      // SSE streams end now with a retry hint (their clients reconnect elsewhere); others may finish first.
      onShutdown: () => {
        const grace = Math.max(0, config.get('framework.shutdown.timeout') - STREAM_END_MARGIN_MS);
        this.#parts.features.shutdown(grace);
        this.#parts.openStreams.shutdown(grace);
      },
    });
  }
}
