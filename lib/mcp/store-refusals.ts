/** The store's refusals without its topic names (the framework's own, of no use to a client), status and code kept. */
import { httpProblem } from '../errors/http-problem';
import type { ErrorCode } from '../errors/problem-details';
import { WebApplicationException } from '../errors/web-application-exception';
import { catchLater, type StageFn } from '../context/settle';

const DETAILS: Partial<Record<ErrorCode, string>> = {
  RXREST_BROADCAST_EVENT_TOO_LARGE:
    'The request makes an event larger than the session store takes (framework.broadcast.max-event-size)',
  RXREST_BROADCAST_TOO_MANY_TOPICS:
    'The server holds as many streams and sessions as it may (framework.broadcast.max-topics); try again shortly',
  RXREST_STREAM_NOT_FOUND: 'The session has no such stream running or kept',
  RXREST_MALFORMED_LAST_EVENT_ID: 'The Last-Event-ID is not an event id of this server',
};

function hide(error: unknown): never {
  const code = error instanceof WebApplicationException ? error.problem?.code : undefined;
  const detail = code === undefined ? undefined : DETAILS[code];
  if (detail === undefined) throw error;
  throw httpProblem(code!, detail, { headers: (error as WebApplicationException).headers, cause: error });
}

/** Whether `step` throws or its Promise rejects. */
export function hidingStoreNames(step: StageFn): StageFn {
  return (ctx) => {
    try {
      return catchLater(step(ctx), hide);
    } catch (error) {
      return hide(error);
    }
  };
}
