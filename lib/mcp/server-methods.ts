/**
 * The requests a server answers with one result (everything but `tools/call`, which streams): what each method
 * does, by name. Each answer is a value, a Promise or an Observable (its first value); a `McpProtocolError` thrown
 * becomes the JSON-RPC error.
 */
import type { RequestContext } from '../pipeline/request-context';
import type { SecurityContext } from '../security/security-context';
import type { CompiledTool } from './compile-tools';
import { INVALID_PARAMS, McpProtocolError, type JsonRpcRequest } from './json-rpc';
import type { McpSession } from './mcp-session';
import { allows } from './method-guard';
import { isLogLevel } from './notices';

/** Who asks: the request's session and caller, and the HTTP request it came in. */
export interface RequestScope {
  readonly session: McpSession;
  readonly security: SecurityContext;
  readonly ctx: RequestContext;
}

/** What the methods read of the server. */
export interface ServerCatalog {
  readonly tools: ReadonlyMap<string, CompiledTool>;
}

export type MethodHandler = (request: JsonRpcRequest, scope: RequestScope) => unknown;

/** A string parameter the method cannot do without; its absence is invalid params. */
export function requiredText(request: JsonRpcRequest, name: string): string {
  const value = request.params?.[name];
  if (typeof value !== 'string')
    throw new McpProtocolError(INVALID_PARAMS, `${request.method} needs "${name}" as a string`);
  return value;
}

/** The methods every server answers, over its catalog. */
export function serverMethods(catalog: ServerCatalog): ReadonlyMap<string, MethodHandler> {
  return new Map<string, MethodHandler>([
    ['ping', () => ({})],
    [
      'tools/list',
      (_request, { security }) => ({
        tools: [...catalog.tools.values()]
          .filter((tool) => allows(tool.guard.rule, security))
          .map((tool) => tool.definition),
      }),
    ],
    [
      'logging/setLevel',
      (request, { session }) => {
        const level = request.params?.level;
        if (!isLogLevel(level)) throw new McpProtocolError(INVALID_PARAMS, `Unknown log level ${String(level)}`);
        session.logLevel = level;
        return {};
      },
    ],
  ]);
}
