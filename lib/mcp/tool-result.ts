/** What a tool's result and failures become on the wire: a `CallToolResult` (MCP `tools/call`). */
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { McpProtocolError } from './json-rpc';

const log = logging.getLogger('rxrest.mcp');

/** One item of a result's `content` (text, image, audio, an embedded resource or a link to one). */
export type ContentBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/** The result of a tool call as MCP sends it. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * A failure a tool reports to the model that called it (`isError: true`, with this message as its text), rather
 * than a fault of the server: the model can read it and try again differently.
 *
 * @example
 * if (!found) throw new ToolError(`No city named ${args.city}`);
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

function isContentBlock(value: unknown): value is ContentBlock {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    CONTENT_TYPES.has((value as { type: string }).type)
  );
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    (value as { content: unknown[] }).content.every(isContentBlock)
  );
}

export function textContent(text: string): ContentBlock {
  return { type: 'text', text };
}

/**
 * A tool's value as a `CallToolResult`: one as it is; a string as one text; a content block, or a list of them, as
 * the content; `undefined` as no content; any other object as `structuredContent`, with its JSON as text for clients
 * that read only text.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [textContent(value)] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  if (typeof value === 'object' && !Array.isArray(value))
    return { content: [textContent(JSON.stringify(value))], structuredContent: value as Record<string, unknown> };
  return { content: [textContent(typeof value === 'object' ? JSON.stringify(value) : String(value))] };
}

export function errorResult(text: string): CallToolResult {
  return { content: [textContent(text)], isError: true };
}

/**
 * A tool's failure as an error result: a `ToolError`'s message or an HTTP exception's (both meant for the caller) as
 * it is; anything else as a plain sentence, the error itself going to the log (its message may hold internals).
 */
export function failedResult(error: unknown, tool: string): CallToolResult {
  if (error instanceof ToolError) return errorResult(error.message);
  // The client's own refusal of a request the tool made of it (sampling, elicitation): its words, not ours.
  if (error instanceof McpProtocolError) return errorResult(`The client answered with an error: ${error.message}`);
  if (error instanceof WebApplicationException && error.status < 500) return errorResult(error.message);
  log.error(`The MCP tool ${tool} failed`, error);
  return errorResult(`The tool ${tool} failed`);
}
