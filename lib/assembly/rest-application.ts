/** The build step and the built application: decorated classes in, a fetch handler and a server out. */
import cluster from 'node:cluster';
import { resolve as resolvePath } from 'node:path';
import { compressionSettings } from '../compression/compression-settings';
import { buildConditionFilter, isEndpointDisabled } from '../conditions/decide-conditions';
import { loadConfig, type Config, type FrameworkKey, type LoadConfigOptions } from '../config';
import type { Application } from '../decorators/application';
import { APPLICATION_PATH } from '../decorators/resource';
import { ProblemCollector } from '../errors/definition-error';
import { checkFilterOrder } from '../execution/check-filter-order';
import { WorkerLane } from '../execution/worker-lane';
import { hostRules } from '../http/allowed-hosts';
import { collectLinkTargets } from '../links/collect-link-targets';
import { configureLogging, logging } from '../logging/logger';
import { findClassMeta } from '../metadata/store';
import { multipartSettings } from '../multipart/multipart-settings';
import { multipartWriter } from '../multipart/multipart-writer';
import { compileStage } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import type { RequestContext } from '../pipeline/request-context';
import { RequestPipeline } from '../pipeline/request-pipeline';
import { bodyEnvironment } from '../providers/body-environment';
import { Router } from '../routing/router';
import { listen, type RunningServer } from '../server/listen';
import { superviseWorkers } from '../server/workers';
import { corsSettings, corsStages } from '../cors/cors';
import { RateLimiters, rateLimitSettings } from '../rate-limit/rate-limits';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import { securitySettings } from '../security/security-stage';
import { tlsSettings, type TlsSettings } from '../server/tls-settings';
import { StaticFiles } from '../static/static-files';
import { Heartbeat } from '../streaming/heartbeat';
import { TickFlush } from '../streaming/tick-flush';
import { OpenStreams } from '../streaming/open-streams';
import { streamAdmission } from '../streaming/stream-admission';
import type { ApplicationMetrics } from '../metrics/application-metrics';
import type { Registry } from 'prom-client';
import { staticFilesAnswer } from '../static/serve-static';
import { applicationOpenApi, type OpenApiDocument } from '../openapi/application-openapi';
import { healthAnswers, healthChecks, type Lifecycle } from '../health/application-health';
import { applicationBroadcast, type ApplicationBroadcast } from '../broadcast/application-broadcast';
import { Broadcaster, type BroadcasterOptions } from '../broadcast/broadcaster';
import type { StreamSettings } from '../streaming/stream-pump';
import { compileEndpoint, type EndpointContext } from './compile-endpoint';
import { applicable, compileFilters, requestSteps, responseSteps, type OperatorFilter } from './compile-filters';
import { compileInterceptors } from './compile-interceptors';
import type { LaneSettings } from './compile-lanes';
import { compileMappers, mappersFor } from './compile-mappers';
import { detectDuplicates } from './detect-duplicates';
import { discover, type Unit } from './discover';
import { compileSocketEndpoint } from './compile-socket-endpoint';
import { checkPackages, packagesNeeded } from './optional-packages';
import { jwtSettings } from '../security/jwt-mechanism';
import { SOCKET_PATH } from '../decorators/websocket';
import type { SocketServer } from '../websocket/socket-server';
import { socketSettings } from '../websocket/socket-settings';
import { upgradeOriginStep } from '../websocket/upgrade-origin';
import { compileMcpServers } from './compile-mcp-servers';

const log = logging.getLogger('rxrest.build');

// Streams still open this long before the shutdown timeout are ended cleanly, before connections are cut.
const STREAM_END_MARGIN_MS = 200;

export interface BuildOptions extends LoadConfigOptions {
  /** The resource and provider classes; every decorated class imported so far when absent. */
  readonly classes?: readonly Function[];
  /** An `Application` subclass instance: its `@ApplicationPath`, `getClasses()` and `getSingletons()`. */
  readonly application?: Application;
  /** Filters written as RxJS operators. */
  readonly filters?: readonly OperatorFilter[];
  /** A ready configuration, instead of loading one. */
  readonly config?: Config;
  /**
   * Authentication mechanisms of the application's own (`apiKeys(...)`, or one implementing
   * `AuthenticationMechanism`), tried in order before the bearer JWTs `framework.security.jwt.*` configures.
   */
  readonly authentication?: readonly AuthenticationMechanism[];
}

/** What the application serves, for logs and tests. */
/** What an application holds besides its pipeline: its broadcast topics, and what has connections to close. */
interface Held {
  readonly broadcast: ApplicationBroadcast;
  close(): Promise<void>;
}

export interface EndpointSummary {
  readonly method: string;
  readonly path: string;
  readonly resource: string;
  readonly handler: string;
}

/** A built application: serve it with `listen()`, or call `fetch()` in process. */
export class RestApp {
  readonly config: Config;
  readonly endpoints: readonly EndpointSummary[];
  readonly #pipeline: RequestPipeline;
  readonly #openapi: () => OpenApiDocument;
  readonly #lifecycle: Lifecycle;
  /** What holds connections besides a server (the broadcast backplane, shared rate limits), and the topics. */
  readonly #held: Held;
  readonly #tls: TlsSettings | undefined;
  /**
   * The prom-client registry `framework.metrics.path` serves (absent when `framework.metrics.enabled=false`):
   * register the application's own metrics on it.
   */
  readonly metrics: Registry | undefined;

  constructor(
    config: Config,
    pipeline: RequestPipeline,
    endpoints: readonly EndpointSummary[],
    openapi: () => OpenApiDocument,
    lifecycle: Lifecycle,
    held: Held,
    tls: TlsSettings | undefined,
    metrics?: ApplicationMetrics,
  ) {
    this.config = config;
    this.#held = held;
    this.#tls = tls;
    this.#pipeline = pipeline;
    this.endpoints = endpoints;
    this.#openapi = openapi;
    this.#lifecycle = lifecycle;
    this.metrics = metrics?.registry;
  }

  /**
   * The application's OpenAPI 3.2 document, as `framework.openapi.path` serves it (made on first use from
   * what `build()` gathered, then kept).
   *
   * @example
   * writeFileSync('openapi.json', JSON.stringify(app.openapi(), null, 2));
   */
  openapi(): OpenApiDocument {
    return this.#openapi();
  }

  /**
   * The Web-standard fetch handler: answers a request in process (no socket, e.g. in tests), and is what
   * `listen()` serves. Mount it in a larger Hono app with `hono.mount('/', app.fetch)`.
   *
   * @example
   * const response = await app.fetch(new Request('http://localhost/fruits'));
   */
  fetch = (request: Request, env?: unknown): Response | Promise<Response> =>
    this.#held.broadcast.within(() => this.#pipeline.execute(request, env));

  /** Answers a request served by `listen()` onto its Node response. */
  readonly #serve = (ctx: RequestContext): void | Promise<void> =>
    this.#held.broadcast.within(() => this.#pipeline.serve(ctx));

  /**
   * The broadcaster of `topic` in this application: what `broadcast(topic)` means within its requests, for code
   * that runs outside them (a timer, a queue consumer) while other applications run in the same process.
   *
   * @example
   * setInterval(() => void app.broadcast<Tick>('ticks').publish({ at: Date.now() }), 1000).unref();
   */
  broadcast<T>(topic: string, options: BroadcasterOptions = {}): Broadcaster<T> {
    return new Broadcaster<T>(topic, options, this.#held.broadcast.topics);
  }

  /**
   * Releases what the application holds besides a server: the Redis connections of the broadcast backplane and of
   * shared rate limits.
   * `listen()`'s shutdown calls it once the server has closed; call it yourself after using `fetch()` alone.
   */
  close(): Promise<void> {
    return this.#held.close();
  }

  /**
   * Serves the application on Node's own HTTP servers; port and host default to the configuration. With
   * `framework.http.workers` above 1, the first process forks that many `node:cluster` workers running the
   * same program (each builds the application and serves in its own `listen()`), and only supervises them.
   */
  listen(options: { port?: number; host?: string; handleSignals?: boolean } = {}): Promise<RunningServer> {
    const { config } = this;
    const port = options.port ?? config.get('framework.http.port');
    const host = options.host ?? config.get('framework.http.host');
    const workers = config.get('framework.http.workers');
    if (workers > 1 && cluster.isPrimary) {
      return superviseWorkers({
        count: workers,
        host,
        shutdownTimeout: config.get('framework.shutdown.timeout'),
        handleSignals: options.handleSignals,
        aggregateMetrics: config.get('framework.metrics.enabled'),
      });
    }
    return listen(this.#serve, {
      port,
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
      hosts: hostRules(config.get('framework.http.allowed-hosts'), config.get('framework.http.public-base-url')),
      nosniff: config.get('framework.http.nosniff'),
      onClosed: () => this.close(),
      // From the first moment of a shutdown the readiness check answers DOWN, so load balancers stop sending traffic.
      onShutdown: () => {
        this.#lifecycle.shuttingDown = true;
        // SSE streams end now with a retry hint (their clients reconnect elsewhere); others may finish first.
        const grace = Math.max(0, config.get('framework.shutdown.timeout') - STREAM_END_MARGIN_MS);
        this.#lifecycle.openStreams.shutdown(grace);
        // WebSockets close now with 1001 after their queued messages (cut at the end of the grace).
        this.#lifecycle.sockets?.shutdown(grace);
      },
    });
  }
}

function streamSettings(config: Config): StreamSettings {
  const keepAliveMs = config.get('framework.rest.sse.keep-alive');
  return {
    bufferSize: config.get('framework.rest.stream.buffer-size'),
    overflow: config.get('framework.rest.stream.overflow'),
    keepAliveMs,
    heartbeat: new Heartbeat(keepAliveMs),
    ticks: new TickFlush(),
  };
}

function laneSettings(config: Config, application: Application | undefined): LaneSettings {
  const type = application?.constructor;
  return {
    worker: new WorkerLane(config.get('framework.rest.worker.max-concurrency')),
    blockedWarningMs: config.get('framework.rest.blocked-warning-ms'),
    application: type ? findClassMeta(type)?.tags : undefined,
  };
}

/** The static directory, relative to the directory of `application.properties` (else the working directory). */
function staticFilesOf(config: Config, directory: string | undefined): StaticFiles | undefined {
  const folder = config.get('framework.http.static.directory');
  return folder ? new StaticFiles(resolvePath(directory ?? process.cwd(), folder)) : undefined;
}

/** The endpoints of one resource class; a method with several HTTP method decorators is a problem. */
function compileResource(unit: Unit, context: EndpointContext): Endpoint[] {
  const endpoints: Endpoint[] = [];
  for (const method of unit.meta.methods.values()) {
    if (method.httpMethods.length > 1) {
      context.problems.add(
        `${unit.type.name}#${method.name}`,
        `has ${method.httpMethods.length} HTTP method decorators (${method.httpMethods.join(', ')}); an endpoint has exactly one`,
      );
      continue;
    }
    const endpoint = method.httpMethods.length
      ? compileEndpoint(unit, method, method.httpMethods[0], context)
      : undefined;
    if (endpoint) endpoints.push(endpoint);
  }
  return endpoints;
}

/** Duplicate endpoints fail the build, or only warn with `framework.rest.fail-on-duplicate=false`. */
function reportDuplicates(endpoints: readonly Endpoint[], config: Config, problems: ProblemCollector): void {
  const duplicates = detectDuplicates(endpoints);
  if (config.get('framework.rest.fail-on-duplicate'))
    for (const message of duplicates) problems.add('duplicate endpoints', message);
  else for (const message of duplicates) log.warn(`Duplicate endpoints: ${message}`);
}

function routerOf(endpoints: readonly Endpoint[]): Router<Endpoint> {
  const router = new Router<Endpoint>();
  for (const endpoint of endpoints) router.add(endpoint.template, endpoint);
  router.freeze();
  return router;
}

function applicationPath(options: BuildOptions, config: Config): string {
  const type = options.application?.constructor;
  return (type && findClassMeta(type)?.tags.get(APPLICATION_PATH)) ?? config.get('framework.rest.path');
}

/**
 * The build step: reads the decorators of the application's classes once, validates them, and compiles
 * every endpoint into its pipeline. Every problem found is reported together in one `DefinitionError`.
 *
 * @example
 * const app = RestApplication.build({ classes: [FruitResource] });
 * await app.listen({ port: 8080 });
 */
export const RestApplication = {
  build(options: BuildOptions = {}): RestApp {
    const config = options.config ?? loadConfig(options);
    configureLogging(config);
    const problems = new ProblemCollector();
    // Build conditions decide discovery; @EndpointDisabled also removes classes listed by getClasses().
    const units = discover({ ...options, include: buildConditionFilter(config) }, problems).filter(
      (unit) => !isEndpointDisabled(unit.meta, config),
    );
    const compression = compressionSettings(config);
    const interceptors = compileInterceptors(units, problems);
    const filters = compileFilters(units, options.filters ?? [], problems);
    const mappers = compileMappers(units, problems, interceptors);
    const bodies = bodyEnvironment(units, config);
    const body = {
      maxBodySize: config.get('framework.http.limits.max-body-size'),
      maxStreamItemSize: config.get('framework.http.limits.max-stream-item-size'),
      multipart: multipartSettings((key) => config.get(key as FrameworkKey)),
      ...bodies.settings,
    };
    const root = applicationPath(options, config);
    const resources = units.filter((u) => u.isResource);
    const hosts = hostRules(config.get('framework.http.allowed-hosts'), config.get('framework.http.public-base-url'));
    const links = {
      registry: collectLinkTargets(resources, root, problems),
      // A configured public origin is the origin: forwarding headers cannot name another.
      forwarding: config.get('framework.http.proxy.proxy-address-forwarding') && hosts?.public === undefined,
      allowsHost: hosts?.allows,
    };
    const openStreams = new OpenStreams();
    const streams = { ...streamSettings(config), openStreams };
    const lanes = laneSettings(config, options.application);
    const rateLimits = new RateLimiters(rateLimitSettings(config));
    const admission = streamAdmission(
      {
        maxStreams: config.get('framework.http.limits.max-streams'),
        maxStreamsPerClient: config.get('framework.http.limits.max-streams-per-client'),
      },
      rateLimits.client,
    );
    const security = securitySettings(
      config,
      options.directory ?? process.cwd(),
      options.authentication,
      rateLimits.failedAuthentications(),
    );
    for (const problem of checkFilterOrder(filters.request)) problems.add(problem.where, problem.message);
    const shared = {
      applicationPath: root,
      filters,
      interceptors,
      body,
      problems,
      compression,
      links,
      streams,
      lanes,
      security,
      rateLimits,
      streamAdmission: admission,
    };
    const restEndpoints = resources.flatMap((unit) =>
      compileResource(unit, { ...shared, mappers: mappersFor(mappers, unit.type) }),
    );
    let sockets: SocketServer | undefined;
    let broadcast: ApplicationBroadcast | undefined;
    const socketContext = {
      ...shared,
      json: bodies.json,
      // Made once the build has found no problem (it connects to Redis); no socket callback runs before.
      within: <R>(work: () => R): R => broadcast!.within(work),
      upgradeOrigin: upgradeOriginStep(config),
      // The sockets' code is loaded with the first upgrade an endpoint accepts.
      sockets: () =>
        (sockets ??= new (
          require('../websocket/socket-server') as typeof import('../websocket/socket-server')
        ).SocketServer(socketSettings(config, security !== undefined))),
    };
    const socketEndpoints = units
      .filter((unit) => unit.meta.tags.has(SOCKET_PATH))
      .map((unit) => compileSocketEndpoint(unit, { ...socketContext, mappers: mappersFor(mappers, unit.type) }))
      .filter((endpoint) => endpoint !== undefined);
    // The registry is made below, once the build stands; the servers ask for it per request.
    const mcp = compileMcpServers(
      units,
      shared,
      mappers,
      bodies.json,
      config,
      () => metrics?.registry,
      () => broadcast!.topics,
    );
    const endpoints = [...restEndpoints, ...socketEndpoints, ...mcp.endpoints];
    reportDuplicates(endpoints, config, problems);
    const checks = healthChecks(units, problems);
    checkPackages(
      packagesNeeded(config, {
        socketEndpoints: socketEndpoints.length > 0,
        rateLimits: rateLimits.used,
        countsRefusals: security?.refusals !== undefined,
        jwt: jwtSettings(config) !== undefined,
      }),
      problems,
    );
    problems.throwIfAny();
    // The certificate files are read now: a start with TLS configured never goes on without it.
    const tls = tlsSettings(config, options.directory ?? process.cwd());
    broadcast = applicationBroadcast(config, bodies.json);
    const globalResponse = applicable(filters.response, new Set<string>());
    const lifecycle: Lifecycle = {
      shuttingDown: false,
      openStreams,
      sockets: socketEndpoints.length ? { shutdown: (graceMs) => sockets?.shutdown(graceMs) } : undefined,
    };
    // prom-client is loaded only when metrics are on.
    const metrics = config.get('framework.metrics.enabled')
      ? new (
          require('../metrics/application-metrics') as typeof import('../metrics/application-metrics')
        ).ApplicationMetrics({
          openStreams: () => openStreams.size,
          workerQueue: () => lanes.worker.waiting,
        })
      : undefined;
    const openApi = applicationOpenApi(
      restEndpoints.map((endpoint) => endpoint.facts),
      config,
      root,
      security?.mechanisms,
    );
    const files = staticFilesOf(config, options.directory);
    const cors = corsSettings(config);
    const corsParts = cors ? corsStages(cors) : undefined;
    const finishers = [corsParts?.finish, rateLimits.used ? rateLimits.finish : undefined].filter(
      (finish) => finish !== undefined,
    );
    const pipeline = new RequestPipeline({
      hosts,
      first: corsParts?.before,
      finish:
        finishers.length === 0
          ? undefined
          : finishers.length === 1
            ? finishers[0]
            : (ctx) => finishers.forEach((finish) => finish(ctx)),
      router: routerOf(endpoints),
      preMatching: compileStage(requestSteps(filters.preMatching)),
      mappers: mappersFor(mappers, undefined),
      responseFilters: compileStage(responseSteps(globalResponse)),
      writers: bodies.writers([multipartWriter]),
      // With both switches off no response is ever compressed: the write stage then skips the decision.
      compression: compression.enabled || compression.legacyGzip ? compression : undefined,
      nosniff: config.get('framework.http.nosniff'),
      // Built-in paths first, static files last; a resource at any of these paths wins over all of them.
      unrouted: [
        ...healthAnswers([...checks, ...broadcast.checks], config, lifecycle),
        ...(metrics ? [metrics.answer(config.get('framework.metrics.path'))] : []),
        ...openApi.answers,
        ...(files ? [staticFilesAnswer(files)] : []),
      ],
      observe: metrics?.observe,
    });
    const summary = endpoints.map((e) => ({
      method: socketEndpoints.includes(e) ? 'WEBSOCKET' : e.info.httpMethod,
      path: e.info.pathTemplate,
      resource: e.info.resourceClass.name,
      handler: e.info.methodName,
    }));
    log.debug(`Built ${summary.length} endpoints`);
    const held = {
      broadcast,
      close: () => (mcp.close(), Promise.all([broadcast.close(), rateLimits.close()]).then(() => undefined)),
    };
    return new RestApp(config, pipeline, summary, openApi.document, lifecycle, held, tls, metrics);
  },
};
