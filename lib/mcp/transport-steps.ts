/** The Streamable HTTP transport's steps: `POST` the client's messages, `GET` a stream, `DELETE` the session. */
import { fromEvent } from 'rxjs/internal/observable/fromEvent';
import { finalize } from 'rxjs/internal/operators/finalize';
import { takeUntil } from 'rxjs/internal/operators/takeUntil';
import { readRequestText } from '../body/read-body';
import { isForbiddenProperty, parseJsonBody } from '../json/safe-json';
import type { RequestContext } from '../context/request-context';
import { settleToPromise, then, type StageFn } from '../context/settle';
import type { StageResult } from '../context/stage';
import { principalName, securityContext } from '../security/security-context';
import { formatSize } from '../http/size';
import { utf8Length } from '../runtime/bytes';
import { multi } from '../streaming/multi';
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
import { prefersStream, refuseGetHeaders, refusePostHeaders, withSession } from './transport-headers';

/** Resolves once what the notifications and responses do is in the store, on its way to the instance concerned. */
async function receiveMessages(session: McpSession, messages: readonly JsonRpcMessage[]): Promise<void> {
  await Promise.all(
    messages.map((message) => {
      if (isResponse(message)) return session.reply(message);
      if (!isNotification(message) || message.method !== 'notifications/cancelled') return undefined;
      const { requestId, reason } = message.params ?? {};
      return isId(requestId) ? session.cancel(requestId, typeof reason === 'string' ? reason : undefined) : undefined;
    }),
  );
}

/**
 * A call's stream stores the ids of a POST's requests in one event of the store, and each response beside its id in
 * another: ids of more than a quarter of `framework.broadcast.max-event-size` together are refused before any runs (a
 * 100 KB id got an empty stream, its call run unseen).
 */
function refuseLongIds(ctx: RequestContext, messages: readonly JsonRpcMessage[], maxEventSize: number) {
  const ids = messages.map((message) => ('id' in message ? message.id : null));
  const most = Math.floor(maxEventSize / 4);
  if (utf8Length(JSON.stringify(ids)) <= most) return undefined;
  const detail = `Invalid Request: request ids of more than ${formatSize(most)} together (a quarter of framework.broadcast.max-event-size)`;
  return refuse(ctx, 400, INVALID_REQUEST, detail);
}

/** The Streamable HTTP transport of one server: its steps, each ending the request it is given. */
export class StreamableHttp {
  constructor(
    readonly runtime: McpServerRuntime,
    /** `maxBatchSize` as well: each message may answer far more than it weighs (a `tools/list`), or start a call. */
    readonly limits: { readonly maxBodySize: number; readonly maxBatchSize: number },
    readonly answers: StreamAnswers,
  ) {}

  readonly post: StageFn = (ctx) =>
    refusePostHeaders(ctx) ??
    readRequestText(ctx, this.limits.maxBodySize).then((text) => settleToPromise(this.#receive(ctx, text)));

  readonly get: StageFn = (ctx) =>
    refuseGetHeaders(ctx) ??
    withSession(ctx, this.runtime.sessions, (session) => {
      const lastEventId = ctx.headerValue('last-event-id');
      const position = lastEventId ? readEventId(lastEventId) : undefined;
      if (lastEventId && !position)
        return refuse(ctx, 400, TRANSPORT_ERROR, 'Bad Request: Last-Event-ID is not an event of this server');
      if (!position || position.streamId === NOTICES_STREAM) return this.#notices(ctx, session, position);
      return resumeCallStream(this.answers.topics(), session.id, position, this.answers.retryMs).then((events) =>
        events ? answerStream(ctx, events, session.id, this.answers) : answerEmpty(ctx, 204),
      );
    });

  readonly delete: StageFn = (ctx) =>
    withSession(ctx, this.runtime.sessions, (session) => {
      this.runtime.sessions.close(session);
      return answerEmpty(ctx, 200);
    });

  #receive(ctx: RequestContext, text: string): StageResult<RequestContext> {
    let body: unknown;
    try {
      // As every JSON the framework reads: prototype-poisoning keys are refused, however they are spelled.
      body = parseJsonBody(text);
    } catch (error) {
      if (!isForbiddenProperty(error)) return refuse(ctx, 400, PARSE_ERROR, 'Parse error: Invalid JSON');
      return refuse(ctx, 400, INVALID_REQUEST, `Invalid Request: ${error.message}`);
    }
    const { maxBatchSize } = this.limits;
    if (Array.isArray(body) && body.length > maxBatchSize)
      return refuse(
        ctx,
        400,
        INVALID_REQUEST,
        `Invalid Request: a batch of ${body.length} messages, more than framework.mcp.max-batch-size (${maxBatchSize})`,
      );
    const messages = readMessages(body);
    if (!messages) return refuse(ctx, 400, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
    const longIds = refuseLongIds(ctx, messages, this.answers.topics().maxEventSize);
    if (longIds) return longIds;
    const init = messages.find(
      (message): message is JsonRpcRequest => isRequest(message) && message.method === 'initialize',
    );
    if (init) return this.#initialize(ctx, init, messages.length);
    return withSession(ctx, this.runtime.sessions, (session) => {
      const requests = messages.filter(isRequest);
      const others = messages.filter((message: JsonRpcMessage) => !isRequest(message));
      if (requests.length === 0) return receiveMessages(session, others).then(() => answerEmpty(ctx, 202));
      // The requests do not wait for the cancellations and answers beside them.
      if (others.length > 0) void receiveMessages(session, others).catch(() => undefined);
      return this.#answerRequests(ctx, session, requests);
    });
  }

  /** `initialize` opens a session, answered once it is stored; it must come alone. */
  #initialize(ctx: RequestContext, request: JsonRpcRequest, count: number): StageResult<RequestContext> {
    if (count > 1)
      return refuse(ctx, 400, INVALID_REQUEST, 'Invalid Request: Only one initialization request is allowed');
    return this.runtime
      .initialize(request, principalName(ctx))
      .then(({ session, response }) => answerJson(ctx, 200, response, session.id));
  }

  /** The requests of a POST: as JSON when none calls a tool, else on a stream. */
  #answerRequests(ctx: RequestContext, session: McpSession, requests: JsonRpcRequest[]): StageResult<RequestContext> {
    const { runtime } = this;
    const scope = { session, security: securityContext(ctx), ctx };
    const answer = (): StageResult<RequestContext> => {
      if (prefersStream(ctx) || requests.some((request) => runtime.toolOf(request, scope.security)))
        return answerOnStream(ctx, runtime, scope, requests, this.answers);
      return Promise.all(requests.map((request) => runtime.answer(request, scope))).then((responses) =>
        answerResponses(ctx, responses, session.id),
      );
    };
    // The methods' own security and limits first: a refusal answers the whole POST, before anything runs.
    const checks = requests.flatMap((request) => runtime.guardOf(request) ?? []);
    return [...checks, answer].reduce<StageResult<RequestContext>>((result, step) => then(result, step), ctx);
  }

  #notices(
    ctx: RequestContext,
    session: McpSession,
    position: StreamPosition | undefined,
  ): StageResult<RequestContext> {
    // Made first: a malformed Last-Event-ID is refused here, before the session's one stream is taken.
    const notices = sessionNotices(this.answers.topics(), this.runtime.path, session, position?.eventId);
    const release = session.openNotices();
    if (!release) return refuse(ctx, 409, TRANSPORT_ERROR, 'Conflict: Only one SSE stream is allowed per session');
    // Also given back with the request: an answer that never starts its stream never runs its finalize, and a held
    // stream keeps the session from ever timing out.
    ctx.onComplete(release);
    const events = multi(notices.pipe(takeUntil(fromEvent(session.ended, 'abort')), finalize(release)));
    return answerStream(ctx, events, session.id, this.answers);
  }
}
