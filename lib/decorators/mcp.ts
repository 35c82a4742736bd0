/** MCP servers in the resource style: `@McpServer` on a class, `@Tool`, `@McpResource`, `@Prompt`, `@Completion`. */
import type { ZodType } from 'zod';
import { classMeta, metaKey } from '../metadata/store';
import { methodTag, tagFactory } from './decorator-types';

export interface McpServerOptions {
  /** The name the server gives in `initialize` (`serverInfo.name`); the class's name when absent. */
  readonly name?: string;
  /** `serverInfo.version`; `1.0.0` when absent. */
  readonly version?: string;
  readonly title?: string;
  /** What the server tells the client's model about how to use it (`initialize`'s `instructions`). */
  readonly instructions?: string;
}

export interface McpServerDeclaration extends McpServerOptions {
  readonly path: string;
}

export const MCP_SERVER = metaKey<McpServerDeclaration>('mcp-server');

/** Hints a client may show or act on; never trusted for security (MCP `ToolAnnotations`). */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolOptions {
  /** The tool's name; the method's name when absent. */
  readonly name?: string;
  readonly title?: string;
  /** What the tool does, for the model that decides to call it. */
  readonly description: string;
  /**
   * The arguments' schema: listed as `inputSchema` (JSON Schema 2020-12, as zod writes it) and checked before the
   * call. Without it, the arguments parameter's class gives both (its `static schema`); with neither, no arguments.
   */
  readonly input?: ZodType;
  /** The schema of the result's `structuredContent`, listed as `outputSchema` and checked after the call. */
  readonly output?: ZodType;
  readonly annotations?: ToolAnnotations;
}

export const MCP_TOOL = metaKey<ToolOptions>('mcp-tool');

export interface McpResourceOptions {
  /** A fixed URI (`file:///readme.md`); exactly one of `uri` and `uriTemplate`. */
  readonly uri?: string;
  /** An RFC 6570 level-1 template (`test://template/{id}/data`): the method gets its variables (`{ id: '123' }`). */
  readonly uriTemplate?: string;
  /** The resource's name; the method's name when absent. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export const MCP_RESOURCE = metaKey<McpResourceOptions>('mcp-resource');

export interface PromptOptions {
  /** The prompt's name; the method's name when absent. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** A zod object of strings: each key listed as an argument (required unless optional, `.describe()`d), checked. */
  readonly arguments?: ZodType;
}

export const MCP_PROMPT = metaKey<PromptOptions>('mcp-prompt');

export interface CompletionOptions {
  /** The prompt whose argument this method completes. */
  readonly prompt?: string;
  /** The resource template whose variable this method completes. */
  readonly resourceTemplate?: string;
  /** The argument (or template variable) it completes. */
  readonly argument: string;
}

export const MCP_COMPLETION = metaKey<CompletionOptions>('mcp-completion');

/**
 * Makes the class an MCP server at `path` (under the application path, as `@Path`), speaking the Streamable HTTP
 * transport: `POST` for messages, `GET` for the server's own stream, `DELETE` to end a session. `@Authenticated`,
 * `@RolesAllowed` and `@RateLimit` on the class apply to every request; on a method, to calls of it.
 *
 * @example
 * \@McpServer('/mcp', { name: 'weather' })
 * class WeatherServer {
 *   \@Tool({ description: 'Today\'s forecast for a city', input: z.object({ city: z.string() }) })
 *   forecast(args: { city: string }): string { return `Sunny in ${args.city}`; }
 * }
 */
export function McpServer(path: string, options: McpServerOptions = {}): (target: Function) => void {
  return (target) => classMeta(target).tags.set(MCP_SERVER, { ...options, path });
}

/**
 * A tool: the method is called with its arguments (checked by `input`), a `McpCall` (progress, logging, calls back
 * to the client) and the `SecurityContext`, each injected by its parameter's type. It returns a value, a Promise, or
 * an Observable (`Multi`) whose notices (`progress()`, `log()`) are sent as they come and whose last other value is
 * the result: text for a string, `structuredContent` for an object, or a `CallToolResult` as it is.
 */
export const Tool: (options: ToolOptions) => MethodDecorator = tagFactory(methodTag, MCP_TOOL);

/** A resource the method reads: its contents as text, bytes, or `ResourceContents`, for a fixed URI or a template. */
export const McpResource: (options: McpResourceOptions) => MethodDecorator = tagFactory(methodTag, MCP_RESOURCE);

/** A prompt: the method gets its arguments and returns the messages (or a text, as one user message). */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return methodTag(MCP_PROMPT, options);
}

/**
 * Completes one argument of a prompt or one variable of a resource template: the method gets the text typed so far
 * and the other arguments, and returns the suggestions (at most 100 are sent).
 */
export const Completion: (options: CompletionOptions) => MethodDecorator = tagFactory(methodTag, MCP_COMPLETION);
