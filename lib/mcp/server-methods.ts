/**
 * The requests a server answers with one result (everything but `tools/call`, which streams): what each method
 * does, by name, over the server's catalog.
 */
import type { McpMethod } from './compile-parameters';
import type { CompiledPrompt } from './compile-prompts';
import type { ResourceCatalog } from './compile-resources';
import type { CompiledTool } from './compile-tools';
import { INVALID_PARAMS, McpProtocolError } from './json-rpc';
import type { MethodHandler } from './method-handler';
import { allows } from './method-guard';
import { isLogLevel } from './notices';
import { promptMethods } from './prompt-methods';
import { resourceMethods } from './resource-methods';

/** What a server serves. */
export interface ServerCatalog {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly resources: ResourceCatalog;
  readonly prompts: ReadonlyMap<string, CompiledPrompt>;
  readonly completions: ReadonlyMap<string, McpMethod>;
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
        return session.setLogLevel(level).then(() => ({}));
      },
    ],
    ...resourceMethods(catalog.resources),
    ...promptMethods(catalog.prompts, catalog.completions),
  ]);
}
