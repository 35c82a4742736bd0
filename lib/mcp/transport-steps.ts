/**
 * The steps of a server's path, the three methods of the Streamable HTTP transport.
 * - `POST`: the client's messages. `initialize` opens a session; notifications and responses are taken (202):
 *   `notifications/cancelled` cancels a call, a response answers a request of the server (sampling, elicitation),
 *   other notifications need nothing of the server; requests are answered as JSON, or, when one of them calls a tool,
 *   on an SSE stream that carries the calls' notifications as they come, then their responses, and that a client
 *   may resume.
 * - `GET`: the session's stream of what the server says of its own accord (one at a time), or, with
 *   `Last-Event-ID`, a cut stream resumed on whichever instance the client reaches — a call's (what it missed, then
 *   live, then its end) or the notices' (what it missed, then live).
 * - `DELETE`: the client ends its session; its calls still running are cancelled.
 */
import { fromEvent } from 'rxjs/internal/observable/fromEvent';
import { finalize } from 'rxjs/internal/operators/finalize';
import { takeUntil } from 'rxjs/internal/operators/takeUntil';
import { readRequestText } from '../body/read-body';
import { isForbiddenProperty, parseJsonBody } from '../json/safe-json';
import type { RequestContext } from '../context/request-context';
import { settleToPromise, then, type StageFn } from '../context/settle';
import type { StageResult } from '../context/stage';
import { securityContext } from '../security/security-context';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { readEventId, resumeCallStream, type StreamPosition } from './call-streams';
import {
  INVALID_REQUEST,
  isId,
  isNotification,
  isRequest,
  isResponse,
  PARSE_ERROR,
  readMessages,
  TRANSPORT_ERROR,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './json-rpc';
import type { McpServerRuntime } from './mcp-server-runtime';
import type { McpSession } from './mcp-session';
import { NOTICES_STREAM, sessionNotices } from './server-notices';
import { answerOnStream, answerStream, type StreamAnswers } from './stream-answers';
import { answerEmpty, answerJson, answerResponses, refuse } from './transport-answers';
import { prefersStream, principalOf, refuseGetHeaders, refusePostHeaders, withSession } from './transport-headers';

/**
 * Takes the notifications and responses of a POST; resolves once what they do is in the store, on its way to the
 * instance it concerns (the client is answered 202 then).
 */
async function receiveMessages(session: McpSession, messages: readonly JsonRpcMessage[]): Promise<void> {
  const done: Promise<void>[] = [];
  for (const message of messages) {
    if (isResponse(message)) {
      done.push(session.reply(message));
      continue;
    }
    if (!isNotification(message) || message.method !== 'notifications/cancelled') continue;
    const requestId = message.params?.requestId;
    const reason = message.params?.reason;
    if (isId(requestId)) done.push(session.cancel(requestId, typeof reason === 'string' ? reason : undefined));
  }
  await Promise.all(done);
}

/** `initialize` opens a session, answered as JSON with its id once it is stored; it must come alone. */
function initialize(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  request: JsonRpcRequest,
  count: number,
): StageResult<RequestContext> {
  if (count > 1)
    return refuse(ctx, 400, INVALID_REQUEST, 'Invalid Request: Only one initialization request is allowed');
  return runtime
    .initialize(request, principalOf(ctx))
    .then(({ session, response }) => answerJson(ctx, 200, response, session.id));
}

/** The requests of a POST: as JSON when none calls a tool, else on a stream. */
function answerRequests(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  session: McpSession,
  requests: readonly JsonRpcRequest[],
  streams: StreamAnswers,
): StageResult<RequestContext> {
  const scope = { session, security: securityContext(ctx), ctx };
  const answer = (): StageResult<RequestContext> => {
    // A tool's call streams; other requests, when the client would rather have them so.
    if (prefersStream(ctx) || requests.some((request) => runtime.toolOf(request, scope.security)))
      return answerOnStream(ctx, runtime, scope, requests, streams);
    return Promise.all(requests.map((request) => runtime.answer(request, scope))).then((responses) =>
      answerResponses(ctx, responses, session.id),
    );
  };
  // The methods' own security and limits first: a refusal answers the whole POST, before anything runs.
  let checked: StageResult<RequestContext> = ctx;
  for (const request of requests) {
    const check = runtime.guardOf(request);
    if (check) checked = then(checked, check);
  }
  return checked === ctx ? answer() : then(checked, answer);
}

/** What one POST may carry. */
export interface PostLimits {
  /** Bytes of its body. */
  readonly maxBodySize: number;
  /** Messages of a batch: each may answer far more than it weighs (a `tools/list`), or start a call. */
  readonly maxBatchSize: number;
}

function receive(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  text: string,
  streams: StreamAnswers,
  maxBatchSize: number,
): StageResult<RequestContext> {
  let body: unknown;
  try {
    // As every JSON the framework reads: prototype-poisoning keys are refused, however they are spelled.
    body = parseJsonBody(text);
  } catch (error) {
    if (!isForbiddenProperty(error)) return refuse(ctx, 400, PARSE_ERROR, 'Parse error: Invalid JSON');
    return refuse(ctx, 400, INVALID_REQUEST, `Invalid Request: ${error.message}`);
  }
  if (Array.isArray(body) && body.length > maxBatchSize)
    return refuse(
      ctx,
      400,
      INVALID_REQUEST,
      `Invalid Request: a batch of ${body.length} messages, more than framework.mcp.max-batch-size (${maxBatchSize})`,
    );
  const messages = readMessages(body);
  if (!messages) return refuse(ctx, 400, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
  const init = messages.find(
    (message): message is JsonRpcRequest => isRequest(message) && message.method === 'initialize',
  );
  if (init) return initialize(ctx, runtime, init, messages.length);
  return withSession(ctx, runtime.sessions, (session) => {
    const requests = messages.filter(isRequest);
    const others = messages.filter((message: JsonRpcMessage) => !isRequest(message));
    if (requests.length === 0) return receiveMessages(session, others).then(() => answerEmpty(ctx, 202));
    // Cancellations and answers beside requests go their way; the requests do not wait for them.
    if (others.length > 0) void receiveMessages(session, others).catch(() => undefined);
    return answerRequests(ctx, runtime, session, requests, streams);
  });
}

/** The POST step of a server. */
export function postMessages(runtime: McpServerRuntime, limits: PostLimits, streams: StreamAnswers): StageFn {
  return (ctx) =>
    refusePostHeaders(ctx) ??
    readRequestText(ctx, limits.maxBodySize).then((text) =>
      settleToPromise(receive(ctx, runtime, text, streams, limits.maxBatchSize)),
    );
}

/** `events` while the session lasts, giving back its notices stream (`release`) when they end or the client leaves. */
function whileSession(session: McpSession, events: Multi<SseEvent>, release: () => void): Multi<SseEvent> {
  return multi(events.pipe(takeUntil(fromEvent(session.ended, 'abort')), finalize(release)));
}

function notices(
  ctx: RequestContext,
  runtime: McpServerRuntime,
  session: McpSession,
  position: StreamPosition | undefined,
  answers: StreamAnswers,
): StageResult<RequestContext> {
  // Made first: a malformed Last-Event-ID is refused here, before the session's one stream is taken.
  const notices = sessionNotices(answers.topics(), runtime.path, session, position?.eventId);
  const release = session.openNotices();
  if (!release) return refuse(ctx, 409, TRANSPORT_ERROR, 'Conflict: Only one SSE stream is allowed per session');
  // Given back with the request too: an answer that never starts its stream (a refusal after this step, a client
  // gone first) never runs the stream's finalize, and a held stream keeps the session from ever timing out.
  ctx.onComplete(release);
  return answerStream(ctx, whileSession(session, notices, release), session.id, answers);
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
