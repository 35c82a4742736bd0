/** A request the pipeline does not write the answer of: an accepted WebSocket upgrade's `101` is taken over. */
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
