/** The stream and file bodies a request started, so that the ones its final response does not write are released. */
import type { RequestContext } from '../context/request-context';
import type { DirectBody } from './direct-body';
import { ContextKey } from '../context/context-key';

// A request property (not a field of RequestContext) so requests without streams or files pay nothing.
const STARTED = new ContextKey<DirectBody[]>('started-bodies');

/** Records that `body` (a primed stream, an opened file) belongs to `ctx` until its response is written. */
export function trackStarted(ctx: RequestContext, body: DirectBody): void {
  const started = ctx.get(STARTED);
  if (started) started.push(body);
  else ctx.set(STARTED, [body]);
}

/**
 * Cancels every started body but the one about to be written (a filter, mapper or failure replaced it): no leak.
 * The write stage calls it again when writing fails and the response is replaced.
 */
export function releaseUnwritten(ctx: RequestContext): void {
  const started = ctx.get(STARTED);
  if (!started) return;
  const written = ctx.response?.entity;
  const kept = started.filter((body) => body === written);
  for (const body of started) if (body !== written) body.cancel();
  ctx.set(STARTED, kept.length ? kept : undefined);
}
