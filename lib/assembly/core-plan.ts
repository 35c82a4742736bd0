/** What every endpoint is compiled with, whatever its features: filters, interceptors, mappers, bodies, streams. */
import { loadConfig, type Config } from '../config';
import { APPLICATION_PATH } from '../decorators/resource';
import { ProblemCollector } from '../errors/definition-error';
import { WorkerLane } from '../execution/worker-lane';
import { HELD_BYTES, JSON_MAPPER, OPEN_STREAMS, WORKER_QUEUE } from '../feature/core-keys';
import { configureLogging } from '../logging/logger';
import { findClassMeta } from '../metadata/store';
import { MULTIPART } from '../multipart/multipart-feature';
import type { BodySettings } from '../params/read-body-argument';
import { OpenStreams } from '../streaming/open-streams';
import { HeldBytes } from '../streaming/held-bytes';
import type { StreamSettings } from '../streaming/stream-pump';
import { BuildScope, type BuildOptions } from './build-scope';
import { checkFilterOrder, compileFilters } from './compile-filters';
import { compileInterceptors } from '../pipeline/interceptors';
import type { LaneSettings } from '../pipeline/lanes';
import { compileMappers } from './compile-mappers';
import { discover } from './discover';
import { Heartbeat } from '../streaming/heartbeat';
import { TickFlush } from '../streaming/tick-flush';
import { timersServeAllRequests } from '../runtime/runtime-name';
import { createBuiltinWriters } from '../body/entity-writers';
import { PROVIDER } from '../decorators/providers';
import { createJsonMapper } from '../json/create-json-mapper';
import { BodyProviders } from '../providers/body-providers';

/** Body reading and writing: every `@Provider` instance read once, the JSON mapper configured from `framework.json.*`. */
function bodyPlan(scope: BuildScope) {
  const { config, units } = scope;
  const providers = new BodyProviders(units.filter((unit) => unit.meta.tags.has(PROVIDER)));
  const json = createJsonMapper(
    {
      failOnUnknownProperties: config.get('framework.json.fail-on-unknown-properties'),
      writeDatesAsTimestamps: config.get('framework.json.write-dates-as-timestamps'),
    },
    providers.jsonCustomizers,
    providers.jsonProducer,
  );
  const body: BodySettings = {
    maxBodySize: config.get('framework.http.limits.max-body-size'),
    maxStreamItemSize: config.get('framework.http.limits.max-stream-item-size'),
    multipart: scope.find(MULTIPART)!.settings,
    converters: providers.converters,
    providers,
    json,
  };
  // User writers, then multipart's, then the built-ins, wrapped by the writer interceptors.
  const writers = () => providers.entityWriters([scope.find(MULTIPART)!.writer, ...createBuiltinWriters(json)]);
  return { json, body, writers };
}

export type CorePlan = ReturnType<typeof planCore>;

/** The build's scope: configuration loaded (logging set from it), classes discovered, problems collected. */
export function openScope(options: BuildOptions): BuildScope {
  const config = options.config ?? loadConfig(options);
  configureLogging(config);
  const problems = new ProblemCollector();
  const units = discover(options, config, problems);
  const type = options.application?.constructor;
  const root = (type && findClassMeta(type)?.tags.get(APPLICATION_PATH)) ?? config.get('framework.rest.path');
  // A Worker without nodejs_compat has no process (nor a disk for the directory to matter).
  const directory = options.directory ?? (globalThis as { process?: { cwd?(): string } }).process?.cwd?.() ?? '.';
  return new BuildScope(config, directory, units, root, problems);
}

/** Stream settings: one keep-alive timer and tick flush for streams where timers serve all requests (not Workers). */
function streamSettings(config: Config): StreamSettings {
  const keepAliveMs = config.get('framework.rest.sse.keep-alive');
  const shared = timersServeAllRequests();
  return {
    bufferSize: config.get('framework.rest.stream.buffer-size'),
    overflow: config.get('framework.rest.stream.overflow'),
    heldBytes: new HeldBytes(config.get('framework.rest.stream.total-buffer-size')),
    keepAliveMs,
    heartbeat: shared ? new Heartbeat(keepAliveMs) : undefined,
    ticks: shared ? new TickFlush() : undefined,
  };
}

/** The core of every endpoint; what features read of it (JSON mapper, open streams...) is provided to them. */
export function planCore(scope: BuildScope, options: BuildOptions) {
  const { config, units, problems } = scope;
  const interceptors = compileInterceptors(units, problems);
  const filters = compileFilters(units, options.filters ?? [], problems);
  for (const problem of checkFilterOrder(filters.request)) problems.add(problem.where, problem.message);
  const { json, body, writers } = bodyPlan(scope);
  const type = options.application?.constructor;
  const lanes: LaneSettings = {
    worker: new WorkerLane(config.get('framework.rest.worker.max-concurrency')),
    blockedWarningMs: config.get('framework.rest.blocked-warning-ms'),
    application: type ? findClassMeta(type)?.tags : undefined,
  };
  const streams = { ...streamSettings(config), openStreams: new OpenStreams() };
  scope.provide(JSON_MAPPER, json);
  scope.provide(OPEN_STREAMS, streams.openStreams);
  scope.provide(HELD_BYTES, streams.heldBytes);
  scope.provide(WORKER_QUEUE, lanes.worker);
  return {
    filters,
    interceptors,
    mappers: compileMappers(units, problems, interceptors),
    json,
    body,
    writers,
    streams,
    lanes,
  };
}
