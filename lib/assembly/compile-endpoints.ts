/** The endpoints of an application: its resource methods, its socket endpoints and those features make (MCP servers). */
import { BROADCAST } from '../broadcast/broadcast-feature';
import type { Config } from '../config';
import { SOCKET_PATH } from '../decorators/websocket';
import type { ProblemCollector } from '../errors/definition-error';
import { logging } from '../logging/logger';
import { ENDPOINT_FACTS } from '../openapi/openapi-feature';
import { ENDPOINT_SOURCES, type Endpoint, type EndpointKit } from '../pipeline/endpoint';
import { SECURITY } from '../security/security-feature';
import { messageFraming } from '../websocket/message-framing';
import { SOCKETS } from '../websocket/websocket-feature';
import type { BuildScope } from './build-scope';
import { compileEndpoint, type EndpointContext, type RestEndpoint } from './compile-endpoint';
import { mappersFor } from './compile-mappers';
import { applicable, requestSteps, responseSteps } from '../pipeline/filters';
import { compileSocketEndpoint } from './compile-socket-endpoint';
import type { CorePlan } from './core-plan';
import type { Unit } from '../metadata/unit';
import type { EndpointJoins } from '../feature/feature';

function mediaList(types: readonly string[]): string {
  return types.length ? [...types].sort().join(', ') : '*';
}

const log = logging.getLogger('rxrest.build');

/** What the application serves, for logs and tests. */
export interface EndpointSummary {
  readonly method: string;
  readonly path: string;
  readonly resource: string;
  readonly handler: string;
}

/** The endpoints of one resource class; a method with several HTTP method decorators is a problem. */
function compileResource(unit: Unit, context: EndpointContext): RestEndpoint[] {
  const endpoints: RestEndpoint[] = [];
  for (const method of unit.meta.methods.values()) {
    if (method.httpMethods.length > 1) {
      context.problems.add(
        `${unit.type.name}#${method.name}`,
        `has ${method.httpMethods.length} HTTP method decorators (${method.httpMethods.join(', ')}); an endpoint has exactly one`,
      );
      continue;
    }
    if (method.httpMethods.length === 0) continue;
    const endpoint = compileEndpoint(unit, method, method.httpMethods[0], context);
    if (endpoint) endpoints.push(endpoint);
  }
  return endpoints;
}

/**
 * Endpoints declared twice (same method, path pattern and media types), one message per conflict naming each: they fail
 * the build, or only warn with `framework.rest.fail-on-duplicate=false`.
 */
function reportDuplicates(endpoints: readonly Endpoint[], config: Config, problems: ProblemCollector): void {
  const groups = new Map<string, Endpoint[]>();
  for (const endpoint of endpoints) {
    const { info } = endpoint;
    const key = `${info.httpMethod} ${endpoint.template.normalized} ${mediaList(info.consumes)} ${mediaList(info.produces)}`;
    groups.set(key, [...(groups.get(key) ?? []), endpoint]);
  }
  const fail = config.get('framework.rest.fail-on-duplicate');
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const lines = group.map(
      ({ info: i }) =>
        `${i.resourceClass.name}#${i.methodName} consumes ${mediaList(i.consumes)}, produces ${mediaList(i.produces)}`,
    );
    const message = `${group[0].info.httpMethod} ${group[0].info.pathTemplate} is declared by :\n${lines.join('\n')}`;
    if (fail) problems.add('duplicate endpoints', message);
    else log.warn(`Duplicate endpoints: ${message}`);
  }
}

type SharedContext = Omit<EndpointContext, 'mappers'>;

/** The socket endpoints: one framing for all of them, so that an event broadcast to many is framed once. */
function compileSockets(scope: BuildScope, core: CorePlan, shared: SharedContext): Endpoint[] {
  const context = {
    ...shared,
    framing: messageFraming(core.json),
    broadcast: scope.find(BROADCAST)!,
    sockets: scope.find(SOCKETS)!,
  };
  return scope.units
    .filter((unit) => unit.meta.tags.has(SOCKET_PATH))
    .map((unit) => compileSocketEndpoint(unit, { ...context, mappers: mappersFor(core.mappers, unit.type) }))
    .filter((endpoint) => endpoint !== undefined);
}

/** What features that make endpoints (MCP servers) compile them with: the same plan, filters and mappers. */
function endpointKit(core: CorePlan, shared: SharedContext): EndpointKit {
  return {
    ...shared,
    streams: core.streams,
    maxBodySize: core.body.maxBodySize,
    json: core.json,
    mappers: (type) => mappersFor(core.mappers, type),
    filters: (bindings) => ({
      request: requestSteps(applicable(core.filters.request, bindings)),
      response: responseSteps(applicable(core.filters.response, bindings)),
    }),
  };
}

/** Compiles every endpoint with the core plan and the steps the features join to each. */
export function compileEndpoints(scope: BuildScope, core: CorePlan, joins: EndpointJoins) {
  const { config, problems } = scope;
  const shared: SharedContext = {
    ...core,
    applicationPath: scope.applicationPath,
    problems,
    joins,
    security: scope.find(SECURITY),
  };
  const rest = scope.resources.flatMap((unit) =>
    compileResource(unit, { ...shared, mappers: mappersFor(core.mappers, unit.type) }),
  );
  scope.provide(ENDPOINT_FACTS, () => rest.map((endpoint) => endpoint.facts));
  const sockets = compileSockets(scope, core, shared);
  const kit = endpointKit(core, shared);
  const made = scope.gather(ENDPOINT_SOURCES).flatMap((source) => source(kit));
  const all = [...rest, ...sockets, ...made];
  reportDuplicates(all, config, problems);
  const summary = all.map((e) => ({
    method: sockets.includes(e) ? 'WEBSOCKET' : e.info.httpMethod,
    path: e.info.pathTemplate,
    resource: e.info.resourceClass.name,
    handler: e.info.methodName,
  }));
  log.debug(`Built ${summary.length} endpoints`);
  return { rest, all, summary };
}
