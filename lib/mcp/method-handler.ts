/** What a request method of a server is: a function of the request and who asks, answering one result. */
import type { RequestContext } from '../pipeline/request-context';
import type { SecurityContext } from '../security/security-context';
import { INVALID_PARAMS, McpProtocolError, type JsonRpcRequest } from './json-rpc';
import type { McpSession } from './mcp-session';

/** Who asks: the request's session and caller, and the HTTP request it came in. */
export interface RequestScope {
  readonly session: McpSession;
  readonly security: SecurityContext;
  readonly ctx: RequestContext;
}

/**
 * Answers a request with a value, a Promise or an Observable (its first value); a `McpProtocolError` thrown becomes
 * the JSON-RPC error.
 */
export type MethodHandler = (request: JsonRpcRequest, scope: RequestScope) => unknown;

/** A string parameter the method cannot do without; its absence is invalid params. */
export function requiredText(request: JsonRpcRequest, name: string): string {
  const value = request.params?.[name];
  if (typeof value !== 'string')
    throw new McpProtocolError(INVALID_PARAMS, `${request.method} needs "${name}" as a string`);
  return value;
}
