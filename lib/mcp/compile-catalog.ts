/** Compiles what an MCP server class serves, once: its tools, resources, prompts and completions. */
import type { ZodType } from 'zod';
import { MCP_COMPLETION, MCP_PROMPT, MCP_RESOURCE, MCP_TOOL, type CompletionOptions } from '../decorators/mcp';
import type { Unit } from '../metadata/unit';
import { compileMcpMethod, compileTagged, methodGuard, type McpMethod, type MethodGuard } from './compile-method';
import { jsonSchemaOf } from '../openapi/type-schema';
import { inputBinding, type InputBinding, type JsonSchema } from './input-binding';
import type { JsonRpcRequest } from './json-rpc';
import type { McpBuildContext } from './mcp-build-context';
import { compileUriTemplate, type UriTemplate } from './uri-template';

export interface Served {
  /** What its list shows of it. */
  readonly definition: Readonly<Record<string, unknown>>;
  readonly method: McpMethod;
  readonly guard: MethodGuard;
}

export interface CompiledTool extends Served {
  readonly name: string;
  readonly input: InputBinding;
  readonly output: ZodType | undefined;
}

export interface CompiledResource extends Served {
  readonly mimeType: string | undefined;
  /** `undefined` for a fixed URI. */
  readonly template: UriTemplate | undefined;
}

export interface ResourceCatalog {
  readonly fixed: ReadonlyMap<string, CompiledResource>;
  readonly templates: readonly CompiledResource[];
}

export interface CompiledPrompt extends Served {
  readonly description: string | undefined;
  readonly input: InputBinding;
}

export interface ServerCatalog {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly resources: ResourceCatalog;
  readonly prompts: ReadonlyMap<string, CompiledPrompt>;
  readonly completions: ReadonlyMap<string, McpMethod>;
}

/** Tool names as MCP allows them (SEP-986). */
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** Clients expect an object schema even of a tool without input. */
const NO_INPUT: JsonSchema = { type: 'object', properties: {} };

function compileTools(unit: Unit, context: McpBuildContext): Map<string, CompiledTool> {
  const { problems } = context;
  return compileTagged(
    unit,
    problems,
    MCP_TOOL,
    (options, meta, where) => {
      const name = options.name ?? meta.name;
      if (!TOOL_NAME.test(name))
        problems.add(where, `the tool name "${name}" must be 1 to 128 letters, digits, '_', '-' or '.'`);
      if (!options.description) problems.add(where, 'a @Tool needs a description (the model reads it to choose tools)');
      const method = compileMcpMethod(unit, meta.name, problems, true);
      const input = inputBinding(options.input, method.inputType, context.json);
      if (input.schema !== undefined && input.schema.type !== 'object')
        problems.add(where, 'the input of a tool is an object of named arguments: give a z.object(...) schema');
      if (input.schema !== undefined && !method.takesInput)
        problems.add(where, 'declares an input but has no parameter for it');
      const outputSchema = options.output && jsonSchemaOf(options.output);
      if (outputSchema && outputSchema.type !== 'object')
        problems.add(where, 'the output of a tool is an object (its structuredContent): give a z.object(...) schema');
      const { title, description, annotations } = options;
      const inputSchema = input.schema ?? NO_INPUT;
      const definition = { name, title, description, inputSchema, outputSchema, annotations };
      const guard = methodGuard(unit, meta, where, context);
      return [name, { name, definition, method, input, output: options.output, guard }];
    },
    (name, taken) => `the tool name "${name}" is taken by ${taken.method.where}`,
  );
}

function compileResources(unit: Unit, context: McpBuildContext): ResourceCatalog {
  const { problems } = context;
  const all = compileTagged(
    unit,
    problems,
    MCP_RESOURCE,
    (options, meta, where) => {
      const { uri, uriTemplate, title, description, mimeType } = options;
      if ((uri === undefined) === (uriTemplate === undefined))
        return void problems.add(where, 'an @McpResource has either a uri or a uriTemplate');
      const template =
        uriTemplate === undefined ? undefined : problems.attempt(where, () => compileUriTemplate(uriTemplate));
      const method = compileMcpMethod(unit, meta.name, problems, false);
      if (uri !== undefined && method.takesInput)
        problems.add(where, 'a resource of a fixed uri gets no input: give a uriTemplate to receive its variables');
      const definition = { uri, uriTemplate, name: options.name ?? meta.name, title, description, mimeType };
      const guard = methodGuard(unit, meta, where, context);
      return [uri ?? uriTemplate!, { definition, mimeType, template, method, guard }];
    },
    (key, taken) => `the resource ${key} is served by ${taken.method.where} already`,
  );
  const resources = [...all];
  return {
    fixed: new Map(resources.filter(([, resource]) => !resource.template)),
    templates: resources.flatMap(([, resource]) => (resource.template ? [resource] : [])),
  };
}

export function findResource(
  catalog: ResourceCatalog,
  uri: string,
): { resource: CompiledResource; variables: Readonly<Record<string, string>> | undefined } | undefined {
  const fixed = catalog.fixed.get(uri);
  if (fixed) return { resource: fixed, variables: undefined };
  for (const resource of catalog.templates) {
    const variables = resource.template!.match(uri);
    if (variables) return { resource, variables };
  }
  return undefined;
}

/** The tool, prompt or resource a request names, when the server serves it. */
export function servedOf(catalog: ServerCatalog, request: JsonRpcRequest): Served | undefined {
  const { name, uri } = request.params ?? {};
  switch (request.method) {
    case 'tools/call':
      return typeof name === 'string' ? catalog.tools.get(name) : undefined;
    case 'prompts/get':
      return typeof name === 'string' ? catalog.prompts.get(name) : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof uri === 'string' ? findResource(catalog.resources, uri)?.resource : undefined;
    default:
      return undefined;
  }
}

function argumentsOf(schema: JsonSchema | undefined): { name: string; description?: string; required: boolean }[] {
  const properties = (schema?.properties ?? {}) as Record<string, { description?: string }>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, { description }]) => ({
    name,
    description,
    required: required.has(name),
  }));
}

function compilePrompts(unit: Unit, context: McpBuildContext): Map<string, CompiledPrompt> {
  const { problems } = context;
  return compileTagged(
    unit,
    problems,
    MCP_PROMPT,
    (options, meta, where) => {
      const method = compileMcpMethod(unit, meta.name, problems, false);
      const input = inputBinding(options.arguments, method.inputType, context.json);
      if (input.schema !== undefined && input.schema.type !== 'object')
        problems.add(where, 'the arguments of a prompt are an object of strings: give a z.object(...) schema');
      const { name = meta.name, title, description } = options;
      const definition = { name, title, description, arguments: argumentsOf(input.schema) };
      const guard = methodGuard(unit, meta, where, context);
      return [name, { description, definition, method, input, guard }];
    },
    (name, taken) => `the prompt name "${name}" is taken by ${taken.method.where}`,
  );
}

/** `refType` is `ref/prompt` (`ref` a name) or `ref/resource` (`ref` a template). */
export function completionKey(refType: string, ref: string, argument: string): string {
  return `${refType}\n${ref}\n${argument}`;
}

function completes(options: CompletionOptions, catalog: Omit<ServerCatalog, 'tools' | 'completions'>): boolean {
  const { prompt, resourceTemplate, argument } = options;
  if (prompt !== undefined) {
    const declared = catalog.prompts.get(prompt)?.definition.arguments as { name: string }[] | undefined;
    return declared?.some((a) => a.name === argument) ?? false;
  }
  return catalog.resources.templates.some(
    ({ template }) => template!.template === resourceTemplate && template!.variables.includes(argument),
  );
}

function compileCompletions(
  unit: Unit,
  { problems }: McpBuildContext,
  catalog: Omit<ServerCatalog, 'tools' | 'completions'>,
): Map<string, McpMethod> {
  return compileTagged(unit, problems, MCP_COMPLETION, (options, meta, where) => {
    const { prompt, resourceTemplate, argument } = options;
    if ((prompt === undefined) === (resourceTemplate === undefined))
      return void problems.add(where, 'a @Completion completes either a prompt or a resourceTemplate');
    if (!completes(options, catalog)) {
      const target = prompt !== undefined ? `the prompt ${prompt}` : `the resource template ${resourceTemplate}`;
      return void problems.add(where, `completes ${argument} of ${target}, which has no such argument`);
    }
    const refType = prompt !== undefined ? 'ref/prompt' : 'ref/resource';
    const key = completionKey(refType, prompt ?? resourceTemplate!, argument);
    return [key, compileMcpMethod(unit, meta.name, problems, false)];
  });
}

export function compileCatalog(unit: Unit, context: McpBuildContext): ServerCatalog {
  const resources = compileResources(unit, context);
  const prompts = compilePrompts(unit, context);
  const tools = compileTools(unit, context);
  return { tools, resources, prompts, completions: compileCompletions(unit, context, { resources, prompts }) };
}
