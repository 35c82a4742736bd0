/**
 * A request whose answer is not written by the pipeline: a WebSocket upgrade, once its endpoint accepted it and
 * the response filters ran on the `101`, is handed to whatever takes the connection over.
 */
import type { RequestContext } from './request-context';
import { ContextKey } from './context-key';

/** Takes a request over; under `fetch`, what it answers is the runtime's own answer to the upgrade. */
export type TakeOver = (ctx: RequestContext) => Response | undefined | void;

const TAKEOVER = new ContextKey<TakeOver>('takeover');

/** Has `take` answer `ctx` instead of the write stage, as long as its response stays a 101. */
export function takeOver(ctx: RequestContext, take: TakeOver): void {
  ctx.set(TAKEOVER, take);
}

/** What takes `ctx` over, when its endpoint said so and its response is still the 101 it set. */
export function takeoverOf(ctx: RequestContext): TakeOver | undefined {
  return ctx.response?.status === 101 ? ctx.get(TAKEOVER) : undefined;
}
