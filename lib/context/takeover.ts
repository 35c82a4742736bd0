/**
 * A request whose answer is not written by the pipeline: a WebSocket upgrade, once its endpoint accepted it and
 * the response filters ran on the `101`, is handed to whatever takes the connection over.
 */
import type { RequestContext } from './request-context';
import { ContextKey } from './context-key';

const TAKEOVER = new ContextKey<(ctx: RequestContext) => void>('takeover');

/** Has `take` answer `ctx` instead of the write stage, as long as its response stays a 101. */
export function takeOver(ctx: RequestContext, take: (ctx: RequestContext) => void): void {
  ctx.set(TAKEOVER, take);
}

/** What takes `ctx` over, when its endpoint said so and its response is still the 101 it set. */
export function takeoverOf(ctx: RequestContext): ((ctx: RequestContext) => void) | undefined {
  return ctx.response?.status === 101 ? ctx.get(TAKEOVER) : undefined;
}
