/**
 * The HTTP answers of the Streamable HTTP transport that carry no stream: JSON-RPC messages as JSON, `202 Accepted`,
 * and the transport's refusals, which MCP clients read as a JSON-RPC error object with an HTTP status.
 */
import type { RequestContext } from '../context/request-context';
import { ResponseContext } from '../context/response-context';
import { toJson } from '../streaming/framing';
import { errorMessage, type JsonRpcResponse } from './json-rpc';

/** The header naming the session, on every answer once there is one. */
export const SESSION_HEADER = 'mcp-session-id';

/** Answers `ctx` with `body` as JSON text (serialized here: JSON-RPC messages are plain JSON, not mapped entities). */
export function answerJson(ctx: RequestContext, status: number, body: unknown, sessionId?: string): RequestContext {
  const response = new ResponseContext(status, toJson(body), undefined, 'application/json');
  if (sessionId !== undefined) response.headers.set(SESSION_HEADER, sessionId);
  ctx.response = response;
  return ctx;
}

/** Answers `ctx` with no body (`202` for notifications and responses, `200` for a `DELETE`). */
export function answerEmpty(ctx: RequestContext, status: number): RequestContext {
  ctx.response = new ResponseContext(status);
  return ctx;
}

/** A refusal of the transport: `status` with a JSON-RPC error (no request id, since none was taken). */
export function refuse(ctx: RequestContext, status: number, code: number, message: string): RequestContext {
  return answerJson(ctx, status, errorMessage(null, code, message));
}

/** A refusal as a whole Web response, for a step that stops the request (`ctx.abortWith`). */
export function refusalResponse(status: number, code: number, message: string): Response {
  return new Response(toJson(errorMessage(null, code, message)), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** One response as it is, several (a batch) as an array. */
export function answerResponses(
  ctx: RequestContext,
  responses: readonly JsonRpcResponse[],
  sessionId: string,
): RequestContext {
  return answerJson(ctx, 200, responses.length === 1 ? responses[0] : responses, sessionId);
}
