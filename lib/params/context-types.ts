/** The parameter types injected as context objects, and how each is obtained from the request. */
import { Context as HonoContext, type ExecutionContext } from 'hono';
import { markContextClass } from '../metadata/context-classes';
import { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { EXECUTION_CONTEXT } from '../context/execution-context';
import { HttpHeaders } from './context/http-headers';
import { ResourceInfo } from './context/resource-info';
import { UriInfo } from './context/uri-info';
import { ContextKey } from '../context/context-key';

export type ContextResolver = (ctx: RequestContext) => unknown;

const HONO_CONTEXT = new ContextKey<HonoContext>('hono-context');

/** Made when a parameter asks for one: the pipeline does not go through Hono's router, so none exists otherwise. */
function honoContext(ctx: RequestContext, made: typeof HonoContext = HonoContext): HonoContext {
  let context = ctx.get(HONO_CONTEXT);
  if (!context) {
    const executionCtx = ctx.get(EXECUTION_CONTEXT) as ExecutionContext | undefined;
    const path = new URL(ctx.request.url).pathname;
    context = new made(ctx.request, { env: ctx.environment, executionCtx, path });
    ctx.set(HONO_CONTEXT, context);
  }
  return context;
}

/** An ES-module application imports Hono's ES build, rxrest (CommonJS) its CommonJS build: two classes of one shape. */
function isOtherHonoContext(type: Function): type is typeof HonoContext {
  if (type.name !== 'Context' || type === HonoContext) return false;
  const own = Object.getOwnPropertyNames(HonoContext.prototype);
  const theirs = new Set(Object.getOwnPropertyNames(type.prototype as object));
  return own.every((name) => theirs.has(name));
}

const resolvers = new Map<Function, ContextResolver>([
  [RequestContext, (ctx) => ctx],
  [ResponseContext, (ctx) => ctx.response],
  [Request, (ctx) => ctx.request],
  [Headers, (ctx) => ctx.headers],
  [UriInfo, (ctx) => new UriInfo(ctx)],
  [HttpHeaders, (ctx) => new HttpHeaders(ctx)],
  [ResourceInfo, (ctx) => new ResourceInfo(ctx)],
  [HonoContext, (ctx) => honoContext(ctx)],
]);
for (const type of resolvers.keys()) markContextClass(type);

/** Makes parameters of `type` receive `resolve(ctx)`: each module adding a context object registers its own. */
export function registerContextType(type: Function, resolve: ContextResolver): void {
  resolvers.set(type, resolve);
  markContextClass(type);
}

export function contextResolver(type: unknown): ContextResolver | undefined {
  if (typeof type !== 'function') return undefined;
  const found = resolvers.get(type);
  if (found !== undefined || !isOtherHonoContext(type)) return found;
  const resolve: ContextResolver = (ctx) => honoContext(ctx, type);
  registerContextType(type, resolve);
  return resolve;
}
