/** Compiles one resource method into an endpoint: its route data and its request handling, built once. */
import { NAME_BINDINGS, RESPONSE_HEADERS, RESPONSE_STATUS } from '../decorators/providers';
import { ACCESS_RULE } from '../decorators/security';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { resolveLane } from '../execution/resolve-lane';
import { parseMediaType, type MediaType } from '../http/media-type';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta } from '../metadata/store';
import { compileStage, type StageFn } from '../pipeline/chain';
import { endpointHandler } from '../pipeline/map-errors';
import type { Endpoint } from '../pipeline/endpoint';
import type { EndpointInfo } from '../context/request-context';
import { acceptNegotiator } from '../pipeline/select-endpoint';
import type { ResultDefaults } from '../pipeline/to-response';
import { isSendableStatus } from '../pipeline/unsendable-head';
import { compilePathTemplate, joinPaths } from '../routing/path-template';
import type { SecuritySettings } from '../security/security-stage';
import type { EndpointFacts } from '../openapi/endpoint-facts';
import { compileArguments } from './compile-arguments';
import { applicable, responseSteps } from '../pipeline/filters';
import { invokeStage, streamingOf, type InvokePlan } from '../pipeline/invoke';
import { laneSteps, type LaneSettings } from '../pipeline/lanes';
import type { Unit } from '../metadata/unit';
import type { EndpointJoins, JoinedSteps } from '../feature/feature';
import type { CorePlan } from './core-plan';
import { checkFileReturnType } from '../files/node-only-files';

/** What one endpoint is compiled with: the core plan, the application path, the features' steps, its class's mappers. */
export type EndpointContext = Omit<CorePlan, 'mappers'> & {
  readonly applicationPath: string;
  readonly mappers: ExceptionMappers;
  readonly problems: ProblemCollector;
  readonly joins: EndpointJoins;
  /** When the application has authentication mechanisms (streams end on expiry). */
  readonly security?: SecuritySettings;
};

function parseTypes(list: readonly string[] | undefined, where: string, problems: ProblemCollector): MediaType[] {
  const types: MediaType[] = [];
  for (const text of list ?? []) {
    const parsed = parseMediaType(text);
    if (parsed) types.push(parsed);
    else problems.add(where, `"${text}" is not a valid media type`);
  }
  return types;
}

/** A `function*` or `async function*` method streams whatever its declared type. */
function isGeneratorMethod(unit: Unit, method: MethodMeta): boolean {
  const fn = (unit.instance as Record<string, unknown>)[method.name];
  const kind =
    typeof fn === 'function'
      ? (Object.getPrototypeOf(fn) as { constructor?: { name?: string } }).constructor?.name
      : undefined;
  return kind === 'GeneratorFunction' || kind === 'AsyncGeneratorFunction';
}

/** Reads `method`'s path, return type, media types and arguments; `undefined` when its path is no template. */
function declaration(unit: Unit, method: MethodMeta, context: EndpointContext) {
  const { problems } = context;
  const where = locate(unit.type, method.name);
  const template = problems.attempt(where, () =>
    compilePathTemplate(joinPaths(context.applicationPath, unit.meta.path ?? '', method.path ?? '')),
  );
  if (!template) return undefined;
  const returnType = readDesignType('design:returntype', unit.type.prototype, method.name);
  problems.attempt(where, () => checkFileReturnType(returnType));
  const status = method.tags.get(RESPONSE_STATUS);
  if (status !== undefined && !isSendableStatus(status))
    problems.add(
      where,
      `@ResponseStatus(${status}) is not an HTTP status an answer can have (an integer from 200 to 599)`,
    );
  const producesText = method.produces ?? unit.meta.produces ?? (returnType === String ? ['text/plain'] : undefined);
  const produces = parseTypes(producesText, where, problems);
  const consumes = parseTypes(method.consumes ?? unit.meta.consumes, where, problems);
  const args = compileArguments(unit.type, method, template, context.body, problems);
  const bindings = new Set([...(unit.meta.tags.get(NAME_BINDINGS) ?? []), ...(method.tags.get(NAME_BINDINGS) ?? [])]);
  return { unit, method, where, template, returnType, producesText, produces, consumes, args, bindings };
}

/** What one method declares, read and checked before its stages are compiled. */
type Declaration = NonNullable<ReturnType<typeof declaration>>;

/** The request model's view of the endpoint (`RequestContext.endpoint`). */
function endpointInfo(d: Declaration, httpMethod: string, lanes: LaneSettings): EndpointInfo {
  const { unit, method } = d;
  const instance = unit.instance as Record<string, Function>;
  return {
    resourceClass: unit.type,
    methodName: method.name,
    httpMethod,
    pathTemplate: d.template.template,
    produces: d.producesText ?? [],
    consumes: method.consumes ?? unit.meta.consumes ?? [],
    lane: resolveLane(method.tags, unit.meta.tags, lanes.application, d.returnType, instance[method.name]),
  };
}

/** What OpenAPI knows of the endpoint, read here so that the document never re-reads decorators. */
function endpointFacts(
  d: Declaration,
  info: EndpointInfo,
  streams: boolean,
  status: number | undefined,
  context: EndpointContext,
  joined: JoinedSteps,
): EndpointFacts {
  return {
    info,
    template: d.template.template,
    params: d.args.facts,
    returnType: d.returnType,
    streams,
    status,
    methodTags: d.method.tags,
    classTags: d.unit.meta.tags,
    access: d.method.tags.get(ACCESS_RULE) ?? d.unit.meta.tags.get(ACCESS_RULE),
    answers: joined.answers,
    errorAnswers: context.mappers.documented,
  };
}

/** The request's stages in phase order: authenticate, admit, filters and reading in the method's lane, invoke, after. */
function requestPart(
  d: Declaration,
  info: EndpointInfo,
  plan: InvokePlan,
  context: EndpointContext,
  joined: JoinedSteps,
): StageFn {
  const invoke = invokeStage(d.unit, d.method, context.interceptors, plan);
  const beforeInvoke = d.args.read ? [...joined.at('read'), d.args.read] : joined.at('read');
  const filters = applicable(context.filters.request, d.bindings);
  const lane = laneSteps(filters, invoke, beforeInvoke, info.lane, context.lanes, d.args.readsBody);
  const steps = [...joined.at('authenticate'), ...joined.at('admit'), ...lane.steps, ...joined.at('after-invoke')];
  const compiled = compileStage(steps)!;
  return lane.wrap ? lane.wrap(compiled) : compiled;
}

/** A resource method's endpoint, with what the API description knows of it (read at build time only). */
export type RestEndpoint = Endpoint & { readonly facts: EndpointFacts };

/** The endpoint of `parts`, handled by `request` then the response filters bound to it, errors through its mappers. */
export function endpointOf(
  parts: Omit<Endpoint, 'negotiate' | 'handle'>,
  request: StageFn,
  bindings: ReadonlySet<string>,
  context: EndpointContext,
): Endpoint {
  const responsePart = compileStage(responseSteps(applicable(context.filters.response, bindings)));
  const handle = endpointHandler(parts.info, request, responsePart, context.mappers);
  return { ...parts, negotiate: acceptNegotiator(parts.produces), handle };
}

/** Compiles `method` of a resource class; `undefined` when it has problems (recorded). */
export function compileEndpoint(
  unit: Unit,
  method: MethodMeta,
  httpMethod: string,
  context: EndpointContext,
): RestEndpoint | undefined {
  const d = declaration(unit, method, context);
  if (!d) return undefined;
  const { template, produces, consumes } = d;
  const info = endpointInfo(d, httpMethod, context.lanes);
  const defaults: ResultDefaults = {
    status: method.tags.get(RESPONSE_STATUS),
    headers: method.tags.get(RESPONSE_HEADERS),
  };
  const streaming = {
    ...streamingOf(method, produces, d.returnType, context.streams),
    endsOnExpiry: context.security?.endStreamsOnExpiry ?? false,
  };
  const streams = streaming.observables || isGeneratorMethod(unit, method);
  const joined = context.joins({ unit, method, where: d.where, info, produces, streams, transport: 'answer' });
  const plan: InvokePlan = { defaults, streaming, blockedWarningMs: context.lanes.blockedWarningMs };
  const facts = endpointFacts(d, info, streams, defaults.status, context, joined);
  const parts = { info, template, consumes, produces, readsBody: d.args.readsBody };
  return { ...endpointOf(parts, requestPart(d, info, plan, context, joined), d.bindings, context), facts };
}
