/** Serves the OpenAPI document at its path, for requests no resource matched: YAML by default, JSON on request. */
import { stringify } from 'yaml';
import { ResponseContext } from '../pipeline/response-context';
import type { RequestContext } from '../pipeline/request-context';
import { isRouteNotFound } from '../static/serve-static';
import type { JsonSchema } from './type-schema';

type Unrouted = (ctx: RequestContext, error: unknown) => Promise<RequestContext>;

/** Whether the client asked for JSON: `?format=json` (Quarkus's convention) or an `Accept` naming JSON but not YAML. */
function wantsJson(ctx: RequestContext): boolean {
  if (ctx.query.get('format')?.toLowerCase() === 'json') return true;
  const accept = ctx.header('accept') ?? '';
  return /application\/json/i.test(accept) && !/yaml/i.test(accept);
}

/**
 * A routing fallback answering `GET`/`HEAD` of `path` with the document (made on first use, then kept as
 * text in both forms), and passing anything else to `next` (or rejecting with the routing error).
 */
export function openApiRoute(path: string, document: () => JsonSchema, next: Unrouted | undefined): Unrouted {
  let yaml: string | undefined;
  let json: string | undefined;
  return (ctx, error) => {
    if (!isRouteNotFound(error) || ctx.rawPath !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next ? next(ctx, error) : Promise.reject(error);
    const asJson = wantsJson(ctx);
    const text = asJson ? (json ??= JSON.stringify(document(), null, 2)) : (yaml ??= stringify(document(), { aliasDuplicateObjects: false }));
    ctx.response = new ResponseContext(200, text, undefined, asJson ? 'application/json;charset=UTF-8' : 'application/yaml;charset=UTF-8');
    return Promise.resolve(ctx);
  };
}
