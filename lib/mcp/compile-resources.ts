/** Compiles the `@McpResource` methods of an MCP server class: fixed URIs and URI templates, built once. */
import { MCP_RESOURCE, type McpResourceOptions } from '../decorators/mcp';
import { locate } from '../errors/definition-error';
import type { Unit } from '../metadata/unit';
import { compileMcpMethod, type McpMethod } from './compile-parameters';
import type { McpBuildContext } from './mcp-build-context';
import { methodGuard, type MethodGuard } from './method-guard';
import { compileUriTemplate, type UriTemplate } from './uri-template';

export interface CompiledResource {
  /** What `resources/list` (or `resources/templates/list`) shows of it. */
  readonly definition: Readonly<Record<string, unknown>>;
  readonly mimeType: string | undefined;
  /** Its template; `undefined` for a fixed URI. */
  readonly template: UriTemplate | undefined;
  readonly method: McpMethod;
  readonly guard: MethodGuard;
}

export interface ResourceCatalog {
  readonly fixed: ReadonlyMap<string, CompiledResource>;
  readonly templates: readonly CompiledResource[];
}

function definitionOf(options: McpResourceOptions, name: string): Record<string, unknown> {
  const { uri, uriTemplate, title, description, mimeType } = options;
  return {
    ...(uri === undefined ? { uriTemplate } : { uri }),
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(mimeType === undefined ? {} : { mimeType }),
  };
}

function compileResource(unit: Unit, methodName: string, context: McpBuildContext): CompiledResource | undefined {
  const { problems } = context;
  const meta = unit.meta.methods.get(methodName)!;
  const options = meta.tags.get(MCP_RESOURCE)!;
  const where = locate(unit.type, methodName);
  if ((options.uri === undefined) === (options.uriTemplate === undefined)) {
    problems.add(where, 'an @McpResource has either a uri or a uriTemplate');
    return undefined;
  }
  const template =
    options.uriTemplate === undefined
      ? undefined
      : problems.attempt(where, () => compileUriTemplate(options.uriTemplate!));
  const method = compileMcpMethod(unit, methodName, problems, false);
  if (options.uri !== undefined && method.takesInput)
    problems.add(where, 'a resource of a fixed uri gets no input: give a uriTemplate to receive its variables');
  return {
    definition: definitionOf(options, options.name ?? methodName),
    mimeType: options.mimeType,
    template,
    method,
    guard: methodGuard(unit, meta, where, context),
  };
}

/** The class's resources; two of one URI (or one template) are a problem. */
export function compileResources(unit: Unit, context: McpBuildContext): ResourceCatalog {
  const fixed = new Map<string, CompiledResource>();
  const templates: CompiledResource[] = [];
  const taken = new Map<string, string>();
  for (const meta of unit.meta.methods.values()) {
    if (!meta.tags.has(MCP_RESOURCE)) continue;
    const resource = compileResource(unit, meta.name, context);
    if (!resource) continue;
    const key = String(resource.definition.uri ?? resource.definition.uriTemplate);
    const where = locate(unit.type, meta.name);
    const other = taken.get(key);
    if (other) {
      context.problems.add(where, `the resource ${key} is served by ${other} already`);
      continue;
    }
    taken.set(key, where);
    if (resource.template) templates.push(resource);
    else fixed.set(key, resource);
  }
  return { fixed, templates };
}

/** The resource serving `uri`, with the variables of its template; `undefined` when none does. */
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
