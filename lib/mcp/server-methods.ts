/** The requests answered with one result (all but `tools/call`); what the caller may not use is as if absent. */
import { catchError } from 'rxjs/internal/operators/catchError';
import { map } from 'rxjs/internal/operators/map';
import type { RequestContext } from '../context/request-context';
import { NotFoundException } from '../errors/web-application-exception';
import type { SecurityContext } from '../security/security-context';
import { completionKey, findResource, type Served, type ServerCatalog } from './compile-catalog';
import { allows } from '../security/access-answers';
import { describeViolations } from './input-binding';
import { INVALID_PARAMS, McpProtocolError, RESOURCE_NOT_FOUND, type JsonRpcRequest } from './json-rpc';
import type { McpSession } from './mcp-session';
import { outputOf, toCompletion, toPromptResult, toReadResult, type CompletionRequest } from './method-results';
import { isLogLevel } from './notices';

export interface RequestScope {
  readonly session: McpSession;
  readonly security: SecurityContext;
  readonly ctx: RequestContext;
}

/** A value, a Promise or an Observable (its first value); a `McpProtocolError` thrown is the JSON-RPC error. */
export type MethodHandler = (request: JsonRpcRequest, scope: RequestScope) => unknown;

function invalidParams(message: string): McpProtocolError {
  return new McpProtocolError(INVALID_PARAMS, message);
}

function requiredText(request: JsonRpcRequest, name: string): string {
  const value = request.params?.[name];
  if (typeof value !== 'string') throw invalidParams(`${request.method} needs "${name}" as a string`);
  return value;
}

/** `{ [field]: definitions }` of what the caller may use. */
function listing(field: string, served: Iterable<Served>): MethodHandler {
  const all = [...served];
  return (_request, { security }) => ({
    [field]: all.filter((item) => allows(item.guard.rule, security)).map((item) => item.definition),
  });
}

function notFound(uri: string): McpProtocolError {
  return new McpProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

function read({ resources }: ServerCatalog, request: JsonRpcRequest, { security }: RequestScope): unknown {
  const uri = requiredText(request, 'uri');
  const found = findResource(resources, uri);
  if (!found || !allows(found.resource.guard.rule, security)) throw notFound(uri);
  const { resource, variables } = found;
  return outputOf(resource.method.invoke(variables ?? {}, security)).pipe(
    map((contents) => toReadResult(uri, resource.mimeType, contents)),
    // A template variable naming nothing answers as MCP says.
    catchError((error: unknown) => {
      throw error instanceof NotFoundException ? notFound(uri) : error;
    }),
  );
}

function getPrompt({ prompts }: ServerCatalog, request: JsonRpcRequest, { security }: RequestScope): unknown {
  const name = requiredText(request, 'name');
  const prompt = prompts.get(name);
  if (!prompt || !allows(prompt.guard.rule, security)) throw invalidParams(`Unknown prompt: ${name}`);
  const bound = prompt.input.bind(request.params?.arguments ?? {});
  if (!bound.ok) throw invalidParams(`Invalid arguments for ${name}: ${describeViolations(bound.violations)}`);
  return outputOf(prompt.method.invoke(bound.value, security)).pipe(
    map((result) => toPromptResult(result, prompt.description)),
  );
}

function textsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function complete({ completions }: ServerCatalog, request: JsonRpcRequest, { security }: RequestScope): unknown {
  const ref = (request.params?.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  const argument = (request.params?.argument ?? {}) as { name?: unknown; value?: unknown };
  if (typeof argument.name !== 'string' || typeof ref.type !== 'string')
    throw invalidParams('completion/complete needs a ref and an argument name');
  const target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
  const method = completions.get(completionKey(ref.type, String(target), argument.name));
  if (!method) return { completion: toCompletion([]) };
  const input: CompletionRequest = {
    argument: argument.name,
    value: typeof argument.value === 'string' ? argument.value : '',
    context: textsOf((request.params?.context as { arguments?: unknown } | undefined)?.arguments),
  };
  return outputOf(method.invoke(input, security)).pipe(map((value) => ({ completion: toCompletion(value) })));
}

function subscribing(on: boolean): MethodHandler {
  return (request, { session }) => session.subscribe(requiredText(request, 'uri'), on).then(() => ({}));
}

export function serverMethods(catalog: ServerCatalog): ReadonlyMap<string, MethodHandler> {
  const { tools, resources, prompts } = catalog;
  return new Map<string, MethodHandler>([
    ['ping', () => ({})],
    ['tools/list', listing('tools', tools.values())],
    [
      'logging/setLevel',
      (request, { session }) => {
        const level = request.params?.level;
        if (!isLogLevel(level)) throw invalidParams(`Unknown log level ${String(level)}`);
        return session.setLogLevel(level).then(() => ({}));
      },
    ],
    ['resources/list', listing('resources', resources.fixed.values())],
    ['resources/templates/list', listing('resourceTemplates', resources.templates)],
    ['resources/read', (request, scope) => read(catalog, request, scope)],
    ['resources/subscribe', subscribing(true)],
    ['resources/unsubscribe', subscribing(false)],
    ['prompts/list', listing('prompts', prompts.values())],
    ['prompts/get', (request, scope) => getPrompt(catalog, request, scope)],
    ['completion/complete', (request, scope) => complete(catalog, request, scope)],
  ]);
}
