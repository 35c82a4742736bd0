/**
 * Compiles an `@McpServer` class: its tools, resources and prompts, and the three endpoints of its path (`POST`,
 * `GET`, `DELETE`) whose stages are the rebinding check, the class's security and rate limit, the application's
 * request filters, then the transport's step.
 */
import { MCP_SERVER } from '../decorators/mcp';
import { NAME_BINDINGS } from '../decorators/providers';
import { RATE_LIMIT } from '../decorators/rate-limit';
import { ACCESS_RULE } from '../decorators/security';
import { locate } from '../errors/definition-error';
import { logging } from '../logging/logger';
import { Tags } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import { compileStage, type StageFn, type Step } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import type { EndpointInfo } from '../pipeline/request-context';
import { acceptNegotiator } from '../pipeline/select-endpoint';
import { endpointHandler } from '../request/endpoint-handler';
import { compilePathTemplate, joinPaths, type PathTemplate } from '../routing/path-template';
import { securityStep } from '../security/security-stage';
import { CallMetrics } from './call-metrics';
import { compileCompletions } from './compile-completions';
import { compilePrompts } from './compile-prompts';
import { compileResources } from './compile-resources';
import { compileTools } from './compile-tools';
import { endSession } from './end-session';
import type { McpBuildContext } from './mcp-build-context';
import { McpServerRuntime } from './mcp-server-runtime';
import { openStream } from './open-stream';
import { postMessages } from './post-messages';
import { rebindingCheck } from './rebinding';
import type { ServerCatalog } from './server-methods';
import type { StreamAnswers } from './stream-answers';

const log = logging.getLogger('rxrest.mcp');

export interface CompiledMcpServer {
  readonly endpoints: readonly Endpoint[];
  readonly runtime: McpServerRuntime;
}

/** The stages every request to the server passes before its own: rebinding check, security, limit, filters. */
function commonSteps(unit: Unit, where: string, context: McpBuildContext): Step[] {
  const steps: Step[] = [];
  const rebinding = rebindingCheck(context.settings.allowedHosts);
  if (rebinding) steps.push(rebinding);
  const rule = unit.meta.tags.get(ACCESS_RULE);
  if ((rule?.kind === 'authenticated' || rule?.kind === 'roles') && !context.security)
    context.problems.add(
      where,
      `@${rule.kind === 'roles' ? 'RolesAllowed' : 'Authenticated'} needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()`,
    );
  const security = securityStep(rule, context.security);
  if (security) steps.push(security);
  const limit = context.problems.attempt(where, () =>
    context.rateLimits?.step(unit.meta.tags.get(RATE_LIMIT), where, true),
  );
  if (limit) steps.push(limit);
  return steps;
}

function endpoint(
  unit: Unit,
  template: PathTemplate,
  httpMethod: 'POST' | 'GET' | 'DELETE',
  steps: readonly Step[],
  response: readonly Step[],
  context: McpBuildContext,
): Endpoint {
  const info: EndpointInfo = {
    resourceClass: unit.type,
    methodName: `mcp ${httpMethod}`,
    httpMethod,
    pathTemplate: template.template,
    produces: [],
    consumes: [],
    lane: 'event-loop',
  };
  return {
    info,
    template,
    consumes: [],
    produces: [],
    negotiate: acceptNegotiator([]),
    readsBody: httpMethod === 'POST',
    facts: {
      info,
      template: template.template,
      params: [],
      returnType: undefined,
      streams: httpMethod !== 'DELETE',
      status: undefined,
      methodTags: new Tags(),
      classTags: unit.meta.tags,
    },
    handle: endpointHandler(info, compileStage(steps)!, compileStage(response), context.mappers),
  };
}

function catalogOf(unit: Unit, context: McpBuildContext): ServerCatalog {
  const resources = compileResources(unit, context);
  const prompts = compilePrompts(unit, context);
  return {
    tools: compileTools(unit, context),
    resources,
    prompts,
    completions: compileCompletions(unit, context, prompts, resources),
  };
}

/** How the server's streams go out: the application's stream settings, the call grace and retry. */
function streamAnswers(where: string, context: McpBuildContext): StreamAnswers {
  return {
    plan: {
      defaults: {},
      streaming: {
        settings: context.streams,
        elementType: undefined,
        observables: true,
        onError: (error: unknown) => log.error(`A stream of ${where} failed after its response was committed`, error),
        endsOnExpiry: context.security?.endStreamsOnExpiry ?? false,
      },
    },
    graceMs: context.settings.callGraceMs,
    retryMs: context.settings.retryMs,
    topics: context.topics,
  };
}

/** Compiles one server class; `undefined` when its path is wrong (the problem is recorded). */
export function compileMcpServer(unit: Unit, context: McpBuildContext): CompiledMcpServer | undefined {
  const declaration = unit.meta.tags.get(MCP_SERVER)!;
  const where = locate(unit.type);
  const template = context.problems.attempt(where, () =>
    compilePathTemplate(joinPaths(context.applicationPath, declaration.path)),
  );
  if (!template) return undefined;
  if (template.variables.length > 0)
    context.problems.add(where, `an MCP server's path has no variables: ${declaration.path}`);
  const common = commonSteps(unit, where, context);
  const runtime = new McpServerRuntime(
    declaration.path,
    { name: declaration.name ?? unit.type.name, version: declaration.version ?? '1.0.0', title: declaration.title },
    declaration.instructions,
    catalogOf(unit, context),
    context.settings,
    new CallMetrics(context.metrics),
    context.topics,
  );
  const answers = streamAnswers(where, context);
  const filters = context.filters(new Set(unit.meta.tags.get(NAME_BINDINGS) ?? []));
  const steps = (last: StageFn): Step[] => [...common, ...filters.request, last];
  const handlers = [
    ['POST', postMessages(runtime, context.maxBodySize, answers)],
    ['GET', openStream(runtime, answers)],
    ['DELETE', endSession(runtime)],
  ] as const;
  return {
    runtime,
    endpoints: handlers.map(([method, last]) =>
      endpoint(unit, template, method, steps(last), filters.response, context),
    ),
  };
}
