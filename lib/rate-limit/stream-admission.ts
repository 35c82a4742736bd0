/**
 * Admission of stream responses: how many a process writes at once (past it 503: another instance may not be full) and
 * how many one client holds (past it 429: it should close some first). An idle stream is never free, and without a cap
 * one client could hold thousands. A place is given back when the stream ends or its client leaves.
 */
import type { Config } from '../config/config';
import type { RequestContext } from '../context/request-context';
import type { StageFn } from '../context/settle';
import { StreamCounts } from '../streaming/stream-counts';
import { StreamBody } from '../streaming/stream-body';
import { ContextKey } from '../context/context-key';
import { refusal } from './limit-answers';
import { takeoverOf } from '../context/takeover';

const SLOT = new ContextKey<() => void>('stream-slot');

/** Seconds a client refused for the process's cap is told to wait: long enough not to come back in a herd. */
const CAPACITY_RETRY_SECONDS = 5;
/** Seconds a client refused for its own cap is told to wait: one of its streams may end any moment. */
const CLIENT_RETRY_SECONDS = 1;

/** The admission step of an application's streaming endpoints; `undefined` when neither cap is set (each 0). */
export function streamAdmission(config: Config, clientOf: (ctx: RequestContext) => string): StageFn | undefined {
  const maxStreams = config.get('framework.http.limits.max-streams');
  const maxStreamsPerClient = config.get('framework.http.limits.max-streams-per-client');
  if (maxStreams <= 0 && maxStreamsPerClient <= 0) return undefined;
  const perClient = new StreamCounts();
  let open = 0;
  return (ctx) => {
    if (maxStreams > 0 && open >= maxStreams)
      throw refusal(
        503,
        'RXREST_STREAM_CAPACITY',
        CAPACITY_RETRY_SECONDS,
        `The server holds as many streams as it may (${maxStreams})`,
      );
    const client = maxStreamsPerClient > 0 ? clientOf(ctx) : undefined;
    if (client !== undefined && !perClient.take(client, maxStreamsPerClient))
      throw refusal(
        429,
        'RXREST_TOO_MANY_STREAMS',
        CLIENT_RETRY_SECONDS,
        `At most ${maxStreamsPerClient} open streams per client`,
      );
    open++;
    // One clean-up gives back both places at once: a client that asks again right after leaving finds them free.
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      open--;
      if (client !== undefined) perClient.give(client);
    };
    ctx.set(SLOT, release);
    ctx.onComplete(release);
    return ctx;
  };
}

/** A stream's place is given back now when the answer is no stream (an error, an MCP POST answered as JSON). */
export function releaseUnlessStreaming(ctx: RequestContext): void {
  if (!(ctx.response?.entity instanceof StreamBody) && takeoverOf(ctx) === undefined) ctx.get(SLOT)?.();
}
