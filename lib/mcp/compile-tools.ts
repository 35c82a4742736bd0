/** Compiles the `@Tool` methods of an MCP server class: their listing, input binding, guard and call, built once. */
import type { ZodType } from 'zod';
import { MCP_TOOL, type ToolAnnotations } from '../decorators/mcp';
import { locate } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';
import { compileMcpMethod, type McpMethod } from './compile-parameters';
import { inputBinding, jsonSchemaOf, type InputBinding, type JsonSchema } from './input-binding';
import type { McpBuildContext } from './mcp-build-context';
import { methodGuard, type MethodGuard } from './method-guard';

/** A tool as `tools/list` shows it. */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
}

export interface CompiledTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  readonly method: McpMethod;
  readonly input: InputBinding;
  readonly output: ZodType | undefined;
  readonly guard: MethodGuard;
}

/** Tool names as MCP allows them (SEP-986). */
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** A tool without input lists an object with no properties, as clients expect an object schema. */
const NO_INPUT: JsonSchema = { type: 'object', properties: {} };

function definitionOf(
  name: string,
  options: { title?: string; description: string; annotations?: ToolAnnotations },
  input: JsonSchema,
  output: JsonSchema | undefined,
): ToolDefinition {
  return {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    description: options.description,
    inputSchema: input,
    ...(output === undefined ? {} : { outputSchema: output }),
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
  };
}

function compileTool(unit: Unit, methodName: string, context: McpBuildContext): CompiledTool | undefined {
  const { problems } = context;
  const meta = unit.meta.methods.get(methodName)!;
  const options = meta.tags.get(MCP_TOOL)!;
  const where = locate(unit.type, methodName);
  const name = options.name ?? methodName;
  if (!TOOL_NAME.test(name))
    problems.add(where, `the tool name "${name}" must be 1 to 128 letters, digits, '_', '-' or '.'`);
  if (!options.description) problems.add(where, 'a @Tool needs a description (the model reads it to choose tools)');
  const method = compileMcpMethod(unit, methodName, problems, true);
  const input = inputBinding(options.input, method.inputType, context.json);
  if (input.schema !== undefined && input.schema.type !== 'object')
    problems.add(where, 'the input of a tool is an object of named arguments: give a z.object(...) schema');
  if (input.schema !== undefined && !method.takesInput)
    problems.add(where, 'declares an input but has no parameter for it');
  const output = options.output;
  const outputSchema = output && jsonSchemaOf(output);
  if (outputSchema && outputSchema.type !== 'object')
    problems.add(where, 'the output of a tool is an object (its structuredContent): give a z.object(...) schema');
  return {
    name,
    definition: definitionOf(name, options, input.schema ?? NO_INPUT, outputSchema),
    method,
    input,
    output,
    guard: methodGuard(unit, meta, where, context),
  };
}

/** The class's tools by name; two of one name are a problem. */
export function compileTools(unit: Unit, context: McpBuildContext): ReadonlyMap<string, CompiledTool> {
  const tools = new Map<string, CompiledTool>();
  for (const meta of unit.meta.methods.values()) {
    if (!meta.tags.has(MCP_TOOL)) continue;
    const tool = compileTool(unit, meta.name, context);
    if (!tool) continue;
    const taken = tools.get(tool.name);
    if (taken)
      context.problems.add(
        locate(unit.type, meta.name),
        `the tool name "${tool.name}" is taken by ${taken.method.where}`,
      );
    else tools.set(tool.name, tool);
  }
  return tools;
}
