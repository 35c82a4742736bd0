/** One MCP server at run time: its catalog, its sessions, and how it answers a request or runs a tool call. */
import { firstValueFrom } from 'rxjs/internal/firstValueFrom';
import { Observable } from 'rxjs/internal/Observable';
import { logging } from '../logging/logger';
import type { SecurityContext } from '../security/security-context';
import { servedOf, type CompiledTool, type ServerCatalog } from './compile-catalog';
import { allows } from '../security/access-answers';
import {
  errorMessage,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  isObject,
  McpProtocolError,
  METHOD_NOT_FOUND,
  resultMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './json-rpc';
import type { McpSession } from './mcp-session';
import { negotiateVersion } from './transport-headers';
import type { StageFn } from '../context/settle';
import { serverMethods, type MethodHandler, type RequestScope } from './server-methods';
import type { Sessions } from './sessions';
import { callTool } from './tool-call';
import type { Registry } from 'prom-client';
import { CallWatch } from './call-watch';
import { metricLabels } from './metric-labels';

const log = logging.getLogger('rxrest.mcp');

export interface ServerIntroduction {
  readonly serverInfo: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
}

function objectParam(request: JsonRpcRequest, name: string): Record<string, unknown> {
  const value = request.params?.[name];
  return isObject(value) ? value : {};
}

export class McpServerRuntime {
  readonly #methods: ReadonlyMap<string, MethodHandler>;
  readonly #watch: CallWatch;

  constructor(
    /** As declared (its notices topic is named by it). */
    readonly path: string,
    readonly introduction: ServerIntroduction,
    readonly catalog: ServerCatalog,
    readonly sessions: Sessions,
    metrics: () => Registry | undefined,
  ) {
    this.#methods = serverMethods(catalog);
    this.#watch = new CallWatch(metrics, (request) => metricLabels(request, catalog, this.#methods));
  }

  capabilities(): Record<string, unknown> {
    const { tools, resources, prompts } = this.catalog;
    const capabilities: Record<string, unknown> = { logging: {} };
    if (tools.size > 0) capabilities.tools = { listChanged: true };
    if (resources.fixed.size > 0 || resources.templates.length > 0)
      capabilities.resources = { subscribe: true, listChanged: true };
    if (prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (prompts.size > 0 || resources.templates.length > 0) capabilities.completions = {};
    return capabilities;
  }

  async initialize(
    request: JsonRpcRequest,
    principal: string | undefined,
  ): Promise<{ session: McpSession; response: JsonRpcResponse }> {
    const protocolVersion = negotiateVersion(request.params?.protocolVersion);
    const session = await this.sessions.open(
      {
        protocolVersion,
        clientInfo: objectParam(request, 'clientInfo'),
        capabilities: objectParam(request, 'capabilities'),
      },
      principal,
    );
    const result = { protocolVersion, capabilities: this.capabilities(), ...this.introduction };
    return { session, response: resultMessage(request.id, result) };
  }

  /** The tool a `tools/call` request calls, when the caller may use it. */
  toolOf(request: JsonRpcRequest, security: SecurityContext): CompiledTool | undefined {
    const name = request.params?.name;
    const tool = request.method === 'tools/call' && typeof name === 'string' ? this.catalog.tools.get(name) : undefined;
    return tool && allows(tool.guard.rule, security) ? tool : undefined;
  }

  /** The security and limit of the tool, resource or prompt a request names: a refusal answers the whole POST. */
  guardOf(request: JsonRpcRequest): StageFn | undefined {
    const subscribing = request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe';
    return subscribing ? undefined : servedOf(this.catalog, request)?.guard.check;
  }

  call(
    tool: CompiledTool,
    request: JsonRpcRequest,
    scope: RequestScope,
    closeStream: () => void,
  ): Observable<JsonRpcMessage> {
    return this.#watch.call(request, scope, callTool(tool, request, scope, closeStream));
  }

  answer(request: JsonRpcRequest, scope: RequestScope): Promise<JsonRpcResponse> {
    return this.#watch.answer(request, scope, () => this.#answer(request, scope));
  }

  async #answer(request: JsonRpcRequest, scope: RequestScope): Promise<JsonRpcResponse> {
    try {
      const handler = this.#methods.get(request.method);
      if (!handler) throw this.#unknown(request);
      let result = handler(request, scope);
      if (result instanceof Observable) result = firstValueFrom(result, { defaultValue: undefined });
      return resultMessage(request.id, await result);
    } catch (error) {
      if (error instanceof McpProtocolError) return errorMessage(request.id, error.code, error.message, error.data);
      log.error(`MCP ${request.method} failed`, error);
      return errorMessage(request.id, INTERNAL_ERROR, 'Internal error');
    }
  }

  #unknown(request: JsonRpcRequest): McpProtocolError {
    if (request.method === 'tools/call')
      return new McpProtocolError(INVALID_PARAMS, `Unknown tool: ${String(request.params?.name)}`);
    return new McpProtocolError(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
  }
}
