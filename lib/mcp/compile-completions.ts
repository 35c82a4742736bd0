/**
 * Compiles the `@Completion` methods of an MCP server class: each completes one argument of a prompt, or one variable
 * of a resource template, that the class declares.
 */
import { MCP_COMPLETION } from '../decorators/mcp';
import { locate } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';
import { compileMcpMethod, type McpMethod } from './compile-parameters';
import type { CompiledPrompt } from './compile-prompts';
import type { ResourceCatalog } from './compile-resources';
import type { McpBuildContext } from './mcp-build-context';

/** What a completion method is given: the argument, the text typed so far, and the other arguments already set. */
export interface CompletionRequest {
  readonly argument: string;
  readonly value: string;
  readonly context: Readonly<Record<string, string>>;
}

/** What `completion/complete` answers. */
export interface CompletionResult {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}

/** MCP sends at most this many suggestions. */
const MAX_VALUES = 100;

/** The key of a completion: what it completes (`ref/prompt` and a name, or `ref/resource` and a template) and which argument. */
export function completionKey(refType: string, ref: string, argument: string): string {
  return `${refType}\n${ref}\n${argument}`;
}

/** A method's value as the answer: a list of texts (the first 100 sent, the rest counted), or a result as it is. */
export function toCompletion(value: unknown): CompletionResult {
  const given: Partial<CompletionResult> = Array.isArray(value) ? {} : ((value as CompletionResult | undefined) ?? {});
  const values = Array.isArray(value) ? value.map(String) : (given.values ?? []);
  return {
    values: values.slice(0, MAX_VALUES),
    total: given.total ?? values.length,
    hasMore: given.hasMore ?? values.length > MAX_VALUES,
  };
}

/** The class's completions by key; one for an argument the class does not declare is a problem. */
export function compileCompletions(
  unit: Unit,
  context: McpBuildContext,
  prompts: ReadonlyMap<string, CompiledPrompt>,
  resources: ResourceCatalog,
): ReadonlyMap<string, McpMethod> {
  const completions = new Map<string, McpMethod>();
  for (const meta of unit.meta.methods.values()) {
    const options = meta.tags.get(MCP_COMPLETION);
    if (!options) continue;
    const where = locate(unit.type, meta.name);
    const { prompt, resourceTemplate, argument } = options;
    if ((prompt === undefined) === (resourceTemplate === undefined)) {
      context.problems.add(where, 'a @Completion completes either a prompt or a resourceTemplate');
      continue;
    }
    const declared =
      prompt !== undefined
        ? (prompts.get(prompt)?.definition.arguments as { name: string }[] | undefined)?.some(
            (a) => a.name === argument,
          )
        : resources.templates.some(
            (resource) =>
              resource.template!.template === resourceTemplate && resource.template!.variables.includes(argument),
          );
    if (!declared) {
      context.problems.add(
        where,
        `completes ${argument} of ${prompt !== undefined ? `the prompt ${prompt}` : `the resource template ${resourceTemplate}`}, which has no such argument`,
      );
      continue;
    }
    const key =
      prompt !== undefined
        ? completionKey('ref/prompt', prompt, argument)
        : completionKey('ref/resource', resourceTemplate!, argument);
    completions.set(key, compileMcpMethod(unit, meta.name, context.problems, false));
  }
  return completions;
}
