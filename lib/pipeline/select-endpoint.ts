/** Chooses a request's endpoint by method (405), `Content-Type` (415), then `Accept` (406); auto HEAD and OPTIONS. */
import { WebApplicationException } from '../errors/web-application-exception';
import { httpProblem } from '../errors/http-problem';
import { parseAccept, type AcceptRange } from '../http/accept';
import { formatMediaType, parseMediaType, rankConsumes, type MediaType } from '../http/media-type';
import { negotiate, type Negotiated } from '../http/negotiate';
import { RestResponse } from '../response/rest-response';
import type { RouteMatch, Router } from '../routing/router';
import { parseRequestPath, plainRequestPath } from '../routing/request-path';
import { encodesControl } from '../routing/percent-encoding';
import type { Endpoint } from './endpoint';
import { RequestAborted, type RequestContext } from '../context/request-context';

interface Candidate {
  readonly endpoint: Endpoint;
  readonly match: RouteMatch<Endpoint>;
}

function byMethod(matches: readonly RouteMatch<Endpoint>[], method: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of matches)
    for (const endpoint of match.values) if (endpoint.info.httpMethod === method) found.push({ endpoint, match });
  return found;
}

/** Every method the matching routes answer, plus the automatic HEAD and OPTIONS (RFC 9110 §10.2.1). */
function allowedMethods(matches: readonly RouteMatch<Endpoint>[]): string[] {
  const methods = new Set<string>();
  for (const match of matches) for (const endpoint of match.values) methods.add(endpoint.info.httpMethod);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
}

function byContentType(ctx: RequestContext, candidates: Candidate[]): Candidate[] {
  const header = ctx.headerValue('content-type');
  if (header === null) {
    return candidates.filter(
      ({ endpoint }) =>
        !endpoint.readsBody || endpoint.consumes.length === 0 || endpoint.consumes.some((m) => m.type === '*'),
    );
  }
  const contentType = parseMediaType(header);
  if (!contentType) return candidates.filter(({ endpoint }) => endpoint.consumes.length === 0 && !endpoint.readsBody);
  let best = -2;
  let chosen: Candidate[] = [];
  for (const candidate of candidates) {
    const { consumes } = candidate.endpoint;
    const rank = consumes.length === 0 ? -0.5 : rankConsumes(contentType, consumes);
    if (rank < -0.5) continue;
    if (rank > best) {
      best = rank;
      chosen = [candidate];
    } else if (rank === best) chosen.push(candidate);
  }
  return chosen;
}

// negotiate() memoizes its answers per (Accept, @Produces) pair, so each answer is formatted once.
const formattedTypes = new WeakMap<Negotiated, string>();

function formatted(result: Negotiated): string {
  let text = formattedTypes.get(result);
  if (text === undefined) formattedTypes.set(result, (text = formatMediaType(result.type)));
  return text;
}

/** Picks the candidate whose `@Produces` best satisfies `Accept`, and records the negotiated type. */
function byAccept(ctx: RequestContext, candidates: Candidate[]): Candidate | undefined {
  const accept = parseAccept(ctx.headerValue('accept'));
  let chosen: Candidate | undefined;
  let bestQ = -1;
  let negotiated: string | undefined;
  for (const candidate of candidates) {
    const { produces } = candidate.endpoint;
    // No `@Produces` takes anything, at the lowest quality.
    const result = produces.length === 0 ? undefined : negotiate(accept, produces);
    const q = produces.length === 0 ? 0 : (result?.q ?? -1);
    if (q > bestQ) {
      chosen = candidate;
      bestQ = q;
      negotiated = result && formatted(result);
    }
  }
  ctx.negotiated = negotiated;
  return chosen;
}

/** The sole endpoint of the path when it has the method, reads no body and names no `@Consumes` (most requests). */
function soleEndpoint(matches: readonly RouteMatch<Endpoint>[], method: string): Endpoint | undefined {
  if (matches.length !== 1) return undefined;
  const { values } = matches[0];
  if (values.length !== 1) return undefined;
  const endpoint = values[0];
  return endpoint.info.httpMethod === method && !endpoint.readsBody && endpoint.consumes.length === 0
    ? endpoint
    : undefined;
}

/**
 * Negotiates a parsed `Accept` against one endpoint's `@Produces`. Clients mostly send the same `Accept`, for which
 * `parseAccept` returns the same array, so the last answer is kept and found by one identity check.
 */
export function acceptNegotiator(
  produces: readonly MediaType[],
): (accept: readonly AcceptRange[]) => string | undefined {
  let lastAccept: readonly AcceptRange[] | undefined;
  let lastType: string | undefined;
  return (accept) => {
    if (accept !== lastAccept) {
      const result = negotiate(accept, produces);
      lastType = result ? formatted(result) : undefined;
      lastAccept = accept;
    }
    return lastType;
  };
}

/** The 406 for a request whose `Accept` admits no type the endpoint produces. */
export function notAcceptable(ctx: RequestContext, path: string): Error {
  return httpProblem(
    'RXREST_NOT_ACCEPTABLE',
    `No representation of ${path} is acceptable for ${ctx.headers.get('accept')}`,
  );
}

/** Whether `error` is the router's "no resource matches this path" (404), which other answers may replace. */
export function isRouteNotFound(error: unknown): boolean {
  return error instanceof WebApplicationException && error.problem?.code === 'RXREST_ROUTE_NOT_FOUND';
}

/**
 * Fills the routable path (and matrix parameters) of `ctx`; 400 when it cannot be decoded or would decode to a control
 * character (a path without escapes holds none: the URL parser encodes them, Node's parsers refuse them).
 */
function routablePath(ctx: RequestContext): string {
  const raw = ctx.rawPath;
  const plain = plainRequestPath(raw);
  if (plain !== undefined) return (ctx.path = plain);
  const parsed = parseRequestPath(raw);
  if (!parsed) throw httpProblem('RXREST_MALFORMED_PATH', 'The request path contains a malformed percent-encoding');
  if (encodesControl(raw))
    throw httpProblem(
      'RXREST_PATH_CONTROL_CHARACTER',
      'The request path encodes a control character (%00 to %1F, or %7F), which no name holds',
    );
  ctx.matrix = parsed.matrix;
  return (ctx.path = parsed.path);
}

/** Selects the endpoint for `ctx` and fills its path data; throws the HTTP error when there is none. */
export function selectEndpoint(router: Router<Endpoint>, ctx: RequestContext): Endpoint {
  const path = routablePath(ctx);
  const matches = router.match(path);
  if (matches.length === 0) throw httpProblem('RXREST_ROUTE_NOT_FOUND', `No resource matches ${ctx.method} ${path}`);
  const only = soleEndpoint(matches, ctx.method);
  if (only !== undefined) {
    if (only.produces.length > 0) {
      ctx.negotiated = only.negotiate(parseAccept(ctx.headerValue('accept')));
      if (ctx.negotiated === undefined) throw notAcceptable(ctx, path);
    }
    ctx.route = matches[0];
    return only;
  }
  let candidates = byMethod(matches, ctx.method);
  if (candidates.length === 0 && ctx.method === 'HEAD') candidates = byMethod(matches, 'GET');
  if (candidates.length === 0) {
    const allowed = allowedMethods(matches);
    if (ctx.method === 'OPTIONS')
      throw new RequestAborted(
        RestResponse.ResponseBuilder.ok()
          .allow(...allowed)
          .build(),
      );
    throw httpProblem('RXREST_METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${path}`, { allowed });
  }
  candidates = byContentType(ctx, candidates);
  if (candidates.length === 0)
    throw httpProblem(
      'RXREST_UNSUPPORTED_MEDIA_TYPE',
      `No endpoint of ${path} consumes ${ctx.headers.get('content-type') ?? 'a body without Content-Type'}`,
    );
  const chosen =
    candidates.length === 1 && candidates[0].endpoint.produces.length === 0 ? candidates[0] : byAccept(ctx, candidates);
  if (!chosen) throw notAcceptable(ctx, path);
  ctx.route = chosen.match;
  return chosen.endpoint;
}
