/** CORS as `quarkus.http.cors.*` has it: an origin not allowed gets a 403 without CORS headers, so reads nothing. */
import type { Config } from '../config/config';
import { settingError } from '../config/config-error';
import { httpProblem } from '../errors/http-problem';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import { ContextKey } from '../context/context-key';
import { defineFeature } from '../feature/define-feature';

/** `undefined` when CORS is off. `*` with credentials is refused: it would hand every site the caller's cookies. */
function corsSettings(config: Config) {
  if (!config.get('framework.http.cors.enabled')) return undefined;
  const origins = config.get('framework.http.cors.origins');
  const allowCredentials = config.get('framework.http.cors.access-control-allow-credentials');
  if (allowCredentials && origins.includes('*'))
    throw settingError(
      'framework.http.cors.origins',
      origins.join(','),
      "the origins allowed, listed (or /regex/): * cannot be combined with framework.http.cors.access-control-allow-credentials=true, which would let every site call with its visitors' cookies",
    );
  return {
    origins,
    methods: config.get('framework.http.cors.methods'),
    headers: config.get('framework.http.cors.headers'),
    exposedHeaders: config.get('framework.http.cors.exposed-headers'),
    maxAgeMs: config.get('framework.http.cors.access-control-max-age'),
    allowCredentials,
  };
}

/**
 * An `Origin` that is a serialized origin (`scheme://host[:port]`, RFC 6454 section 6.2) no longer than one can be (a
 * host is at most 253 characters, a scheme taken as at most 64): only such a header meets a developer's `/regex/`,
 * which could backtrack for seconds on a long one. The opaque `null` is none.
 */
const isSerializedOrigin = (origin: string): boolean =>
  origin.length <= 64 + '://'.length + 253 + ':65535'.length && /^[a-z][a-z\d+.-]*:\/\/[^/?#@\s]+$/i.test(origin);

const isPattern = (origin: string): boolean => origin.length > 2 && origin.startsWith('/') && origin.endsWith('/');

/**
 * Whether an origin may call: `*`, an exact origin (case-insensitive), or a `/regex/` matching all of it. The opaque
 * origin `null` is shared by every sandboxed frame and `file:` page, so only an exact `null` entry (or `*`) admits it.
 */
export function originMatcher(origins: readonly string[]): (origin: string) => boolean {
  if (origins.includes('*')) return () => true;
  const exact = new Set(origins.filter((origin) => !isPattern(origin)).map((origin) => origin.toLowerCase()));
  const patterns = origins.filter(isPattern).map((origin) => new RegExp(`^(?:${origin.slice(1, -1)})$`));
  return (origin) =>
    exact.has(origin.toLowerCase()) || (isSerializedOrigin(origin) && patterns.some((pattern) => pattern.test(origin)));
}

const CORS_ORIGIN = new ContextKey<string>('cors-origin');
const refusal = (detail: string) => () => httpProblem('RXREST_FORBIDDEN', detail);
const refused = refusal('The origin is not allowed');
// The origin is allowed here: saying otherwise would send a developer looking at the wrong setting.
const preflightRefused = refusal('The preflight asks for a method or header the CORS rules do not allow');

function ownOrigin(url: string): string {
  const path = url.indexOf('/', url.indexOf('//') + 2);
  return (path < 0 ? url : url.slice(0, path)).toLowerCase();
}

const tokenSet = (allowed: readonly string[]): ReadonlySet<string> =>
  new Set(allowed.map((token) => token.toLowerCase()));

const sameTokens = (requested: string, permitted: ReadonlySet<string>): boolean =>
  requested.split(',').every((token) => token.trim() === '' || permitted.has(token.trim().toLowerCase()));

type CorsSettings = NonNullable<ReturnType<typeof corsSettings>>;

function corsReceive(settings: CorsSettings): StageFn {
  const allowed = originMatcher(settings.origins);
  const methods = tokenSet(settings.methods);
  const requestHeaders = tokenSet(settings.headers);
  const maxAge = settings.maxAgeMs === undefined ? undefined : String(Math.floor(settings.maxAgeMs / 1000));
  return (ctx) => {
    const origin = ctx.headerValue('origin');
    if (origin === null || origin.toLowerCase() === ownOrigin(ctx.url)) return ctx;
    if (!allowed(origin)) throw refused();
    const method = ctx.method === 'OPTIONS' ? ctx.headerValue('access-control-request-method') : null;
    if (method === null) {
      ctx.set(CORS_ORIGIN, origin);
      return ctx;
    }
    // A preflight: answered here, before routing, so no resource has to know of CORS. A refused one carries no CORS header.
    const requestedHeaders = ctx.headerValue('access-control-request-headers') ?? '';
    if (settings.methods.length > 0 && !sameTokens(method, methods)) throw preflightRefused();
    if (settings.headers.length > 0 && requestedHeaders !== '' && !sameTokens(requestedHeaders, requestHeaders))
      throw preflightRefused();
    ctx.set(CORS_ORIGIN, origin);
    const headers: Record<string, string> = {
      'access-control-allow-methods': settings.methods.length > 0 ? settings.methods.join(', ') : method,
    };
    const allowHeaders = settings.headers.length > 0 ? settings.headers.join(', ') : requestedHeaders;
    if (allowHeaders !== '') headers['access-control-allow-headers'] = allowHeaders;
    if (maxAge !== undefined) headers['access-control-max-age'] = maxAge;
    return ctx.abortWith(new Response(null, { status: 200, headers }));
  };
}

/** `Vary: Origin` where the answer depends on it. */
function corsFinish(settings: CorsSettings): (ctx: RequestContext) => void {
  const anyOrigin = settings.origins.includes('*') && !settings.allowCredentials;
  return (ctx) => {
    const response = ctx.response;
    if (!response) return;
    const origin = ctx.get(CORS_ORIGIN);
    if (origin === undefined) {
      // Answers to same-origin and refused requests still vary by origin for a cache in between.
      if (ctx.headerValue('origin') !== null && !anyOrigin) response.headers.add('vary', 'Origin');
      return;
    }
    response.headers.set('access-control-allow-origin', anyOrigin ? '*' : origin);
    if (!anyOrigin) response.headers.add('vary', 'Origin');
    if (settings.allowCredentials) response.headers.set('access-control-allow-credentials', 'true');
    if (settings.exposedHeaders.length > 0 && ctx.method !== 'OPTIONS')
      response.headers.set('access-control-expose-headers', settings.exposedHeaders.join(', '));
  };
}

export const corsFeature = defineFeature({
  name: 'cors',
  settings: ['framework.http.cors.'],
  phases: ['receive', 'finish'],
  answers: [{ status: 403, when: 'an origin, method or header the CORS rules do not admit' }],
  transports: {
    answer:
      'preflights answered before routing; Access-Control-* headers and Vary: Origin on every answer, errors included',
    stream: 'the headers go out with the stream head',
    upgrade:
      'CORS does not apply to sockets: the WebSocket feature checks the origin of every upgrade (its own rules, plus these origins when CORS is on)',
  },
  build(build) {
    const settings = corsSettings(build.config);
    return settings && { receive: corsReceive(settings), finish: corsFinish(settings) };
  },
});
