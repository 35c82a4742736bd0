/** The Streamable HTTP transport's answers without a stream; its refusals are JSON-RPC errors with an HTTP status. */
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { toJson } from '../streaming/framing';
import { errorMessage, type JsonRpcResponse } from './json-rpc';

export const SESSION_HEADER = 'mcp-session-id';

/** Serialized here: JSON-RPC messages are plain JSON, not mapped entities. */
export function answerJson(ctx: RequestContext, status: number, body: unknown, sessionId?: string): RequestContext {
  const response = new ResponseContext(status, toJson(body), undefined, 'application/json');
  if (sessionId !== undefined) response.headers.set(SESSION_HEADER, sessionId);
  ctx.response = response;
  return ctx;
}

export function answerEmpty(ctx: RequestContext, status: number): RequestContext {
  ctx.response = new ResponseContext(status);
  return ctx;
}

/** No request id, since none was taken. */
export function refuse(ctx: RequestContext, status: number, code: number, message: string): RequestContext {
  return answerJson(ctx, status, errorMessage(null, code, message));
}

/** For a step that stops the request (`ctx.abortWith`). */
export function refusalResponse(status: number, code: number, message: string): Response {
  return new Response(toJson(errorMessage(null, code, message)), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function answerResponses(
  ctx: RequestContext,
  responses: readonly JsonRpcResponse[],
  sessionId: string,
): RequestContext {
  return answerJson(ctx, 200, responses.length === 1 ? responses[0] : responses, sessionId);
}
