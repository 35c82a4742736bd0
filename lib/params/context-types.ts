/** Which parameter types are injected as context objects, and how each is obtained from the request. */
import { Context as HonoContext } from 'hono';
import { markContextClass } from '../metadata/context-classes';
import { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { HttpHeaders } from './context/http-headers';
import { ResourceInfo } from './context/resource-info';
import { UriInfo } from './context/uri-info';
import { ContextKey } from '../context/context-key';

export type ContextResolver = (ctx: RequestContext) => unknown;

const HONO_CONTEXT = new ContextKey<HonoContext>('hono-context');

/**
 * A Hono `Context` over the request, made when a parameter asks for one (the pipeline does not go through
 * Hono's router, so none exists otherwise); its `env` holds the server's bindings.
 */
function honoContext(ctx: RequestContext): HonoContext {
  let context = ctx.get(HONO_CONTEXT);
  if (!context) {
    context = new HonoContext(ctx.request, { env: ctx.environment });
    ctx.set(HONO_CONTEXT, context);
  }
  return context;
}

const resolvers = new Map<Function, ContextResolver>([
  [RequestContext, (ctx) => ctx],
  [ResponseContext, (ctx) => ctx.response],
  [Request, (ctx) => ctx.request],
  [Headers, (ctx) => ctx.headers],
  [UriInfo, (ctx) => new UriInfo(ctx)],
  [HttpHeaders, (ctx) => new HttpHeaders(ctx)],
  [ResourceInfo, (ctx) => new ResourceInfo(ctx)],
  [HonoContext, honoContext],
]);
for (const type of resolvers.keys()) markContextClass(type);

/**
 * Makes parameters of `type` receive `resolve(ctx)`; each module that adds a context object (security, WebSocket
 * connections, links, HAL) registers its own, so this table knows none of them.
 */
export function registerContextType(type: Function, resolve: ContextResolver): void {
  resolvers.set(type, resolve);
  markContextClass(type);
}

export function contextResolver(type: unknown): ContextResolver | undefined {
  return typeof type === 'function' ? resolvers.get(type) : undefined;
}
