/**
 * `GET` of the Streamable HTTP transport: with `Last-Event-ID`, a cut call stream resumed on whichever instance the
 * client reaches (what it missed, then live, then its end).
 */
import type { StageFn } from '../pipeline/chain';
import type { RequestContext } from '../pipeline/request-context';
import type { StageResult } from '../pipeline/stage';
import { readEventId, resumeCallStream } from './call-streams';
import { TRANSPORT_ERROR } from './json-rpc';
import type { McpServerRuntime } from './mcp-server-runtime';
import { withSession } from './session-lookup';
import { answerStream, type StreamAnswers } from './stream-answers';
import { answerEmpty, refuse } from './transport-answers';
import { refuseGetHeaders } from './transport-headers';

function resumeStream(
  ctx: RequestContext,
  sessionId: string,
  lastEventId: string,
  answers: StreamAnswers,
): StageResult<RequestContext> {
  const position = readEventId(lastEventId);
  if (!position) return refuse(ctx, 400, TRANSPORT_ERROR, 'Bad Request: Last-Event-ID is not an event of this server');
  return resumeCallStream(sessionId, position, answers.retryMs).then((events) =>
    events ? answerStream(ctx, events, sessionId, answers) : answerEmpty(ctx, 204),
  );
}

/** The GET step of a server. */
export function openStream(runtime: McpServerRuntime, answers: StreamAnswers): StageFn {
  return (ctx) =>
    refuseGetHeaders(ctx) ??
    withSession(ctx, runtime.sessions, (session) => {
      const lastEventId = ctx.headerValue('last-event-id');
      if (lastEventId) return resumeStream(ctx, session.id, lastEventId, answers);
      return refuse(ctx, 405, TRANSPORT_ERROR, 'Method Not Allowed: this server sends nothing of its own', {
        allow: 'GET, POST, DELETE',
      });
    });
}
