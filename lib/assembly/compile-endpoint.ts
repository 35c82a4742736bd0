/** Compiles one resource method into an endpoint: its route data and its request handling, built once. */
import { compileCompression } from '../compression/compile-compression';
import type { CompressionSettings } from '../compression/compression-settings';
import { NAME_BINDINGS, RESPONSE_HEADERS, RESPONSE_STATUS } from '../decorators/providers';
import { RATE_LIMIT } from '../decorators/rate-limit';
import { ACCESS_RULE, type AccessRule } from '../decorators/security';
import { locate, type ProblemCollector } from '../errors/definition-error';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { resolveLane } from '../execution/resolve-lane';
import { parseMediaType, type MediaType } from '../http/media-type';
import { linkStage } from '../links/link-stage';
import type { LinkContext } from '../links/rest-links-provider';
import { readDesignType } from '../metadata/reflect-shim';
import type { MethodMeta } from '../metadata/store';
import type { BodySettings } from '../params/read-body-argument';
import { compileStage, type StageFn, type Step } from '../pipeline/chain';
import { endpointHandler } from '../request/endpoint-handler';
import type { Endpoint } from '../pipeline/endpoint';
import type { EndpointInfo, Lane } from '../pipeline/request-context';
import { acceptNegotiator } from '../pipeline/select-endpoint';
import type { ResultDefaults } from '../pipeline/to-response';
import { compilePathTemplate, joinPaths } from '../routing/path-template';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { securityStep, type SecuritySettings } from '../security/security-stage';
import type { StreamSettings } from '../streaming/stream-pump';
import type { EndpointFacts } from '../openapi/endpoint-facts';
import { compileArguments } from './compile-arguments';
import { applicable, responseSteps, type FilterSet } from './compile-filters';
import type { InterceptorChain } from './compile-interceptors';
import { invokeStage, streamingOf } from './compile-invoke';
import { laneSteps, type LaneSettings } from './compile-lanes';
import type { Unit } from './discover';

export type { LaneSettings } from './compile-lanes';

export interface EndpointContext {
  readonly applicationPath: string;
  readonly filters: FilterSet;
  readonly mappers: ExceptionMappers;
  readonly interceptors: InterceptorChain;
  readonly body: BodySettings;
  readonly problems: ProblemCollector;
  /** The application's link targets, for `@InjectRestLinks` endpoints and injected link providers. */
  readonly links?: LinkContext;
  /** Compression settings, for `@Compressed`/`@Uncompressed`/`@GZIP` methods. */
  readonly compression?: CompressionSettings;
  /** `framework.rest.stream.*` and `framework.rest.sse.keep-alive` (defaults when absent). */
  readonly streams?: StreamSettings;
  /** The worker lane, the blocked-loop threshold and the `Application`'s annotations (execution lanes: docs/streaming.md). */
  readonly lanes?: LaneSettings;
  /** The application's authentication mechanisms, when it has any. */
  readonly security?: SecuritySettings;
  /** Per-client limits (`@RateLimit` and `framework.http.rate-limit.*`). */
  readonly rateLimits?: RateLimiters;
  /** The caps on open streams (`framework.http.limits.max-streams*`), for streaming endpoints; absent: none. */
  readonly streamAdmission?: StageFn;
}

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

/** A rule that needs a caller, on an application with no authentication mechanism, is a problem: never open by mistake. */
export function checkAccessRule(rule: AccessRule | undefined, context: EndpointContext, where: string): void {
  if ((rule?.kind === 'authenticated' || rule?.kind === 'roles') && !context.security)
    context.problems.add(
      where,
      `@${rule.kind === 'roles' ? 'RolesAllowed' : 'Authenticated'} needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()`,
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
  const compression = compileCompression(method, context.compression);
  const rule = method.tags.get(ACCESS_RULE) ?? unit.meta.tags.get(ACCESS_RULE);
  checkAccessRule(rule, context, where);
  const security = securityStep(rule, context.security);
  const steps: Step[] = security ? [security] : [];
  const streaming = {
    ...streamingOf(method, produces, returnType, context.streams),
    endsOnExpiry: context.security?.endStreamsOnExpiry ?? false,
  };
  const streams = streaming.observables || isGeneratorMethod(unit, method);
  const limit = problems.attempt(where, () =>
    context.rateLimits?.step(method.tags.get(RATE_LIMIT) ?? unit.meta.tags.get(RATE_LIMIT), where, streams),
  );
  if (limit) steps.push(limit);
  if (streams && context.streamAdmission) steps.push(context.streamAdmission);
  if (compression.mark) steps.push(compression.mark);
  const facts: EndpointFacts = {
    info,
    template: template.template,
    params: args.facts,
    returnType,
    streams,
    status: defaults.status,
    methodTags: method.tags,
    classTags: unit.meta.tags,
    access: rule,
    rateLimited: limit !== undefined,
    errorAnswers: context.mappers.documented,
  };
  const invoke = invokeStage(unit, method, context.interceptors, {
    defaults,
    streaming,
    blockedWarningMs: context.lanes?.blockedWarningMs ?? 0,
  });
  const beforeInvoke: Step[] = [];
  if (compression.inflate) beforeInvoke.push(compression.inflate);
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
  const links = context.links && linkStage(unit, method, info, context.links, produces);
  if (links) steps.push(links);
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
