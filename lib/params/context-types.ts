/** Which parameter types are injected as context objects, and how each is obtained from the request. */
import { RequestContext } from '../pipeline/request-context';
import { ResponseContext } from '../pipeline/response-context';

export type ContextResolver = (ctx: RequestContext) => unknown;

const resolvers = new Map<Function, ContextResolver>([
  [RequestContext, (ctx) => ctx],
  [ResponseContext, (ctx) => ctx.response],
  [Request, (ctx) => ctx.request],
  [Headers, (ctx) => ctx.headers],
]);

/** Makes parameters of `type` receive `resolve(ctx)`; used by modules that add context objects. */
export function registerContextType(type: Function, resolve: ContextResolver): void {
  resolvers.set(type, resolve);
}

export function contextResolver(type: unknown): ContextResolver | undefined {
  return typeof type === 'function' ? resolvers.get(type) : undefined;
}
