/** Compiles the `@Prompt` methods of an MCP server class: their listing (arguments from the zod object) and call. */
import { MCP_PROMPT, type PromptOptions } from '../decorators/mcp';
import { locate } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';
import { compileMcpMethod, type McpMethod } from './compile-parameters';
import { inputBinding, type InputBinding, type JsonSchema } from './input-binding';
import type { McpBuildContext } from './mcp-build-context';
import { methodGuard, type MethodGuard } from './method-guard';

export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface CompiledPrompt {
  readonly name: string;
  readonly description: string | undefined;
  readonly definition: Readonly<Record<string, unknown>>;
  readonly method: McpMethod;
  readonly input: InputBinding;
  readonly guard: MethodGuard;
}

/** The arguments a prompt lists, from the JSON Schema of its zod object. */
function argumentsOf(schema: JsonSchema | undefined): PromptArgument[] {
  const properties = (schema?.properties ?? {}) as Record<string, { description?: string }>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    ...(property.description === undefined ? {} : { description: property.description }),
    required: required.has(name),
  }));
}

function definitionOf(name: string, options: PromptOptions, args: readonly PromptArgument[]): Record<string, unknown> {
  return {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.description === undefined ? {} : { description: options.description }),
    arguments: args,
  };
}

function compilePrompt(unit: Unit, methodName: string, context: McpBuildContext): CompiledPrompt {
  const meta = unit.meta.methods.get(methodName)!;
  const options = meta.tags.get(MCP_PROMPT)!;
  const where = locate(unit.type, methodName);
  const method = compileMcpMethod(unit, methodName, context.problems, false);
  const input = inputBinding(options.arguments, method.inputType, context.json);
  if (input.schema !== undefined && input.schema.type !== 'object')
    context.problems.add(where, 'the arguments of a prompt are an object of strings: give a z.object(...) schema');
  const name = options.name ?? methodName;
  return {
    name,
    description: options.description,
    definition: definitionOf(name, options, argumentsOf(input.schema)),
    method,
    input,
    guard: methodGuard(unit, meta, where, context),
  };
}

/** The class's prompts by name; two of one name are a problem. */
export function compilePrompts(unit: Unit, context: McpBuildContext): ReadonlyMap<string, CompiledPrompt> {
  const prompts = new Map<string, CompiledPrompt>();
  for (const meta of unit.meta.methods.values()) {
    if (!meta.tags.has(MCP_PROMPT)) continue;
    const prompt = compilePrompt(unit, meta.name, context);
    const taken = prompts.get(prompt.name);
    if (taken)
      context.problems.add(
        locate(unit.type, meta.name),
        `the prompt name "${prompt.name}" is taken by ${taken.method.where}`,
      );
    else prompts.set(prompt.name, prompt);
  }
  return prompts;
}
