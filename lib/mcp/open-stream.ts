/**
 * `GET` of the Streamable HTTP transport: the session's stream of what the server says of its own accord (one at a
 * time), or, with `Last-Event-ID`, a cut stream resumed on whichever instance the client reaches — a call's (what it
 * missed, then live, then its end) or the notices' (what it missed, then live). And `DELETE`: the client ends its
 * session; its calls still running are cancelled.
 */
import { fromEvent } from 'rxjs/internal/observable/fromEvent';
import { finalize } from 'rxjs/internal/operators/finalize';
import { takeUntil } from 'rxjs/internal/operators/takeUntil';
import type { StageFn } from '../context/settle';
import type { RequestContext } from '../context/request-context';
import type { StageResult } from '../context/stage';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { readEventId, resumeCallStream, type StreamPosition } from './call-streams';
import { TRANSPORT_ERROR } from './json-rpc';
import type { McpServerRuntime } from './mcp-server-runtime';
import type { McpSession } from './mcp-session';
import { NOTICES_STREAM, sessionNotices } from './server-notices';
import { answerStream, type StreamAnswers } from './stream-answers';
import { answerEmpty, refuse } from './transport-answers';
import { refuseGetHeaders, withSession } from './transport-headers';

/** `events` while the session lasts, giving back its notices stream when they end (or the client leaves). */
function whileSession(session: McpSession, events: Multi<SseEvent>): Multi<SseEvent> {
  return multi(
    events.pipe(
      takeUntil(fromEvent(session.ended, 'abort')),
      finalize(() => session.closeNotices()),
    ),
  );
}

function notices(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  session: McpSession,
  position: StreamPosition | undefined,
  answers: StreamAnswers,
): StageResult<RequestContext> {
  if (!session.openNotices())
    return refuse(ctx, 409, TRANSPORT_ERROR, 'Conflict: Only one SSE stream is allowed per session');
  const notices = sessionNotices(answers.topics(), runtime.path, session, position?.eventId);
  const events = whileSession(session, notices);
  return answerStream(ctx, events, session.id, answers);
}

/** The GET step of a server. */
export function openStream(runtime: McpServerRuntime, answers: StreamAnswers): StageFn {
  return (ctx) =>
    refuseGetHeaders(ctx) ??
    withSession(ctx, runtime.sessions, (session) => {
      const lastEventId = ctx.headerValue('last-event-id');
      const position = lastEventId ? readEventId(lastEventId) : undefined;
      if (lastEventId && !position)
        return refuse(ctx, 400, TRANSPORT_ERROR, 'Bad Request: Last-Event-ID is not an event of this server');
      if (!position || position.streamId === NOTICES_STREAM) return notices(ctx, runtime, session, position, answers);
      return resumeCallStream(answers.topics(), session.id, position, answers.retryMs).then((events) =>
        events ? answerStream(ctx, events, session.id, answers) : answerEmpty(ctx, 204),
      );
    });
}

/** The DELETE step of a server. */
export function endSession(runtime: McpServerRuntime): StageFn {
  return (ctx) =>
    withSession(ctx, runtime.sessions, (session) => {
      runtime.sessions.close(session);
      return answerEmpty(ctx, 200);
    });
}
