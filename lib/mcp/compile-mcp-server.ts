/** Compiles an `@McpServer` class: its catalog, and the `POST`, `GET` and `DELETE` endpoints of its path. */
import { MCP_SERVER } from '../decorators/mcp';
import { NAME_BINDINGS } from '../decorators/providers';
import { locate } from '../errors/definition-error';
import { logging } from '../logging/logger';
import { Tags, type MethodMeta } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import { compileStage, type Step } from '../pipeline/chain';
import type { Endpoint, EndpointKit } from '../pipeline/endpoint';
import type { EndpointInfo } from '../context/request-context';
import { acceptNegotiator } from '../pipeline/select-endpoint';
import { endpointHandler } from '../pipeline/map-errors';
import { compilePathTemplate, joinPaths, type PathTemplate } from '../routing/path-template';
import { streamFailureLog } from '../streaming/backlog';
import { compileCatalog } from './compile-catalog';
import type { McpBuildContext } from './mcp-build-context';
import { McpServerRuntime } from './mcp-server-runtime';
import { Sessions } from './sessions';
import { rebindingCheck } from './rebinding';
import type { StreamAnswers } from './stream-answers';
import { StreamableHttp } from './transport-steps';
import { hidingStoreNames } from './store-refusals';

const log = logging.getLogger('rxrest.mcp');

/** The server's endpoints as a method with no declarations: the plan then reads its class's (security, limit). */
const SERVER_METHOD: MethodMeta = { name: 'mcp', httpMethods: [], params: new Map(), tags: new Tags() };

export interface CompiledMcpServer {
  readonly endpoints: readonly Endpoint[];
  readonly runtime: McpServerRuntime;
}

/**
 * The steps before a server's own: the rebinding check before any credential is looked at, then what the features
 * join as to any resource (a DELETE is no stream, so a client at its cap of open streams can always end a session).
 */
function stepsBefore(unit: Unit, where: string, context: McpBuildContext): (streams: boolean) => Step[] {
  const rebinding = rebindingCheck(context.settings.allowedHosts);
  const [answers, streams] = [false, true].map((streams) => {
    const plan = { unit, method: SERVER_METHOD, where, info: context.info, produces: [], streams };
    const joined = context.joins({ ...plan, transport: 'answer' });
    return [...(rebinding ? [rebinding] : []), ...joined.at('authenticate'), ...joined.at('admit')];
  });
  return (streamed) => (streamed ? streams! : answers!);
}

function endpoint(
  template: PathTemplate,
  httpMethod: 'POST' | 'GET' | 'DELETE',
  steps: readonly Step[],
  response: readonly Step[],
  context: McpBuildContext,
): Endpoint {
  const info: EndpointInfo = { ...context.info, methodName: `mcp ${httpMethod}`, httpMethod };
  return {
    info,
    template,
    consumes: [],
    produces: [],
    negotiate: acceptNegotiator([]),
    readsBody: httpMethod === 'POST',
    handle: endpointHandler(info, compileStage(steps)!, compileStage(response), context.mappers),
  };
}

function streamAnswers(where: string, context: McpBuildContext): StreamAnswers {
  return {
    plan: {
      defaults: {},
      streaming: {
        settings: context.streams,
        elementType: undefined,
        observables: true,
        onError: streamFailureLog(log, `A stream of ${where} failed after its response was committed`),
        endsOnExpiry: context.endsOnExpiry,
      },
    },
    graceMs: context.settings.callGraceMs,
    retryMs: context.settings.retryMs,
    topics: context.topics,
  };
}

function serverInfo(unit: Unit, template: PathTemplate): EndpointInfo {
  const base = { resourceClass: unit.type, methodName: 'mcp', httpMethod: 'POST', produces: [], consumes: [] };
  return { ...base, pathTemplate: template.template, lane: 'event-loop' };
}

/** `undefined` when its path is wrong (the problem is recorded). */
export function compileMcpServer(
  unit: Unit,
  context: Omit<McpBuildContext, 'info' | 'mappers'> & Pick<EndpointKit, 'mappers'>,
): CompiledMcpServer | undefined {
  const declaration = unit.meta.tags.get(MCP_SERVER)!;
  const where = locate(unit.type);
  const template = context.problems.attempt(where, () =>
    compilePathTemplate(joinPaths(context.applicationPath, declaration.path)),
  );
  if (!template) return undefined;
  if (template.variables.length > 0)
    context.problems.add(where, `an MCP server's path has no variables: ${declaration.path}`);
  const server: McpBuildContext = { ...context, info: serverInfo(unit, template), mappers: context.mappers(unit.type) };
  const before = stepsBefore(unit, where, server);
  const { name = unit.type.name, version = '1.0.0', title, instructions } = declaration;
  const runtime = new McpServerRuntime(
    declaration.path,
    { serverInfo: { name, version, title }, instructions },
    compileCatalog(unit, server),
    new Sessions(context.settings.sessionTimeoutMs, context.settings.maxSessions, context.topics),
    context.metrics,
  );
  const answers = streamAnswers(where, server);
  const filters = context.filters(new Set(unit.meta.tags.get(NAME_BINDINGS) ?? []));
  const limits = { maxBodySize: context.maxBodySize, maxBatchSize: context.settings.maxBatchSize };
  const transport = new StreamableHttp(runtime, limits, answers);
  const handlers = [
    ['POST', hidingStoreNames(transport.post), true],
    ['GET', hidingStoreNames(transport.get), true],
    ['DELETE', transport.delete, false],
  ] as const;
  return {
    runtime,
    endpoints: handlers.map(([method, last, streams]) =>
      endpoint(template, method, [...before(streams), ...filters.request, last], filters.response, server),
    ),
  };
}
