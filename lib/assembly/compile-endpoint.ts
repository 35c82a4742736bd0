/** Compiles one resource method into an endpoint: its route data and its request handling, built once. */
import { NAME_BINDINGS, RESPONSE_HEADERS, RESPONSE_STATUS } from '../decorators/providers';
import { ACCESS_RULE } from '../decorators/security';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { resolveLane } from '../execution/resolve-lane';
import { parseMediaType, type MediaType } from '../http/media-type';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta } from '../metadata/store';
import { compileStage, type Step } from '../pipeline/chain';
import { endpointHandler } from '../pipeline/map-errors';
import type { Endpoint } from '../pipeline/endpoint';
import type { EndpointInfo, Lane } from '../context/request-context';
import { acceptNegotiator } from '../pipeline/select-endpoint';
import type { ResultDefaults } from '../pipeline/to-response';
import { compilePathTemplate, joinPaths } from '../routing/path-template';
import type { SecuritySettings } from '../security/security-stage';
import type { EndpointFacts } from '../openapi/endpoint-facts';
import { compileArguments } from './compile-arguments';
import { applicable, responseSteps } from './compile-filters';
import { invokeStage, streamingOf } from '../pipeline/invoke';
import { laneSteps, type LaneSettings } from '../pipeline/lanes';
import type { Unit } from '../metadata/unit';
import type { EndpointJoins } from '../feature/feature';
import type { CorePlan } from './core-plan';
import { checkFileReturnType } from '../files/node-only-files';

/** What one endpoint is compiled with: the core plan, the application path, the features' steps, its class's mappers. */
export type EndpointContext = Omit<CorePlan, 'mappers'> & {
  readonly applicationPath: string;
  readonly mappers: ExceptionMappers;
  readonly problems: ProblemCollector;
  /** The steps the application's features add to an endpoint, by phase. */
  readonly joins: EndpointJoins;
  /** The application's authentication mechanisms, when it has any (streams end on expiry). */
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

/** A `function*` or `async function*` method: its result is a stream whatever its declared type. */
function isGeneratorMethod(unit: Unit, method: MethodMeta): boolean {
  const fn = (unit.instance as Record<string, unknown>)[method.name];
  const kind =
    typeof fn === 'function'
      ? (Object.getPrototypeOf(fn) as { constructor?: { name?: string } }).constructor?.name
      : undefined;
  return kind === 'GeneratorFunction' || kind === 'AsyncGeneratorFunction';
}

/** The lane of a method: its annotations, its class's, the application's, else its return type. */
function defaultLane(unit: Unit, method: MethodMeta, returnType: unknown, lanes: LaneSettings | undefined): Lane {
  return resolveLane(
    method.tags,
    unit.meta.tags,
    lanes?.application,
    returnType,
    (unit.instance as Record<string, Function>)[method.name],
  );
}

/** Compiles `method` of a resource class; returns `undefined` when it has problems (recorded). */
export function compileEndpoint(
  unit: Unit,
  method: MethodMeta,
  httpMethod: string,
  context: EndpointContext,
): Endpoint | undefined {
  const { problems } = context;
  const where = locate(unit.type, method.name);
  const template = problems.attempt(where, () =>
    compilePathTemplate(joinPaths(context.applicationPath, unit.meta.path ?? '', method.path ?? '')),
  );
  if (!template) return undefined;
  const returnType = readDesignType('design:returntype', unit.type.prototype, method.name);
  problems.attempt(where, () => checkFileReturnType(returnType));
  const producesText = method.produces ?? unit.meta.produces ?? (returnType === String ? ['text/plain'] : undefined);
  const produces = parseTypes(producesText, where, problems);
  const consumes = parseTypes(method.consumes ?? unit.meta.consumes, where, problems);
  const args = compileArguments(unit.type, method, template, context.body, problems);
  const bindings = new Set([...(unit.meta.tags.get(NAME_BINDINGS) ?? []), ...(method.tags.get(NAME_BINDINGS) ?? [])]);
  const defaults: ResultDefaults = {
    status: method.tags.get(RESPONSE_STATUS),
    headers: method.tags.get(RESPONSE_HEADERS),
  };
  const info: EndpointInfo = {
    resourceClass: unit.type,
    methodName: method.name,
    httpMethod,
    pathTemplate: template.template,
    produces: producesText ?? [],
    consumes: method.consumes ?? unit.meta.consumes ?? [],
    lane: defaultLane(unit, method, returnType, context.lanes),
  };
  const streaming = {
    ...streamingOf(method, produces, returnType, context.streams),
    endsOnExpiry: context.security?.endStreamsOnExpiry ?? false,
  };
  const streams = streaming.observables || isGeneratorMethod(unit, method);
  const joined = context.joins({ unit, method, where, info, produces, streams, transport: 'answer' });
  const steps: Step[] = [...joined.at('authenticate'), ...joined.at('admit')];
  const facts: EndpointFacts = {
    info,
    template: template.template,
    params: args.facts,
    returnType,
    streams,
    status: defaults.status,
    methodTags: method.tags,
    classTags: unit.meta.tags,
    access: method.tags.get(ACCESS_RULE) ?? unit.meta.tags.get(ACCESS_RULE),
    answers: joined.answers,
    errorAnswers: context.mappers.documented,
  };
  const invoke = invokeStage(unit, method, context.interceptors, {
    defaults,
    streaming,
    blockedWarningMs: context.lanes.blockedWarningMs,
  });
  const beforeInvoke: Step[] = [...joined.at('read')];
  if (args.read) beforeInvoke.push(args.read);
  const lanePart = laneSteps(
    applicable(context.filters.request, bindings),
    invoke,
    beforeInvoke,
    info.lane,
    context.lanes,
    args.readsBody,
  );
  steps.push(...lanePart.steps);
  steps.push(...joined.at('after-invoke'));
  const compiled = compileStage(steps)!;
  const requestPart = lanePart.wrap ? lanePart.wrap(compiled) : compiled;
  const responseFilters = applicable(context.filters.response, bindings);
  const responsePart = compileStage(responseSteps(responseFilters));
  const handle = endpointHandler(info, requestPart, responsePart, context.mappers);
  return {
    info,
    template,
    consumes,
    produces,
    negotiate: acceptNegotiator(produces),
    readsBody: args.readsBody,
    facts,
    handle,
  };
}
