/** What an MCP method's value becomes on the wire: a tool's, a prompt's, a resource's or a completion's result. */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import { of } from 'rxjs/internal/observable/of';
import { switchMap } from 'rxjs/internal/operators/switchMap';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { McpProtocolError } from './json-rpc';
import { toBase64 } from '../runtime/bytes';

const log = logging.getLogger('rxrest.mcp');

/** One item of a result's `content` (text, image, audio, an embedded resource or a link to one). */
export type ContentBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/** The result of a tool call. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

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

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** MCP's limit. */
const MAX_VALUES = 100;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isContentBlock(value: unknown): value is ContentBlock {
  return isRecord(value) && typeof value.type === 'string' && CONTENT_TYPES.has(value.type);
}

function textContent(text: string): ContentBlock {
  return { type: 'text', text };
}

/** A Promise may hold a value or an Observable. */
export function outputOf(result: unknown): Observable<unknown> {
  if (result instanceof Observable) return result;
  if (result instanceof Promise)
    return from(result).pipe(switchMap((value) => (value instanceof Observable ? value : of(value))));
  if (isRecord(result) && Symbol.asyncIterator in result) return from(result as AsyncIterable<unknown>);
  return of(result);
}

/** Any object but content blocks is `structuredContent`, with its JSON as text for clients that read only text. */
export function toCallToolResult(value: unknown): CallToolResult {
  if (isRecord(value) && Array.isArray(value.content) && value.content.every(isContentBlock))
    return value as unknown as CallToolResult;
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

/** Only a `ToolError`'s or a 4xx's message is meant for the caller; others may hold internals, so they are logged. */
export function failedResult(error: unknown, tool: string): CallToolResult {
  if (error instanceof ToolError) return errorResult(error.message);
  // The client's own refusal of a request the tool made of it (sampling, elicitation): its words, not ours.
  if (error instanceof McpProtocolError) return errorResult(`The client answered with an error: ${error.message}`);
  if (error instanceof WebApplicationException && error.status < 500) return errorResult(error.message);
  log.error(`The MCP tool ${tool} failed`, error);
  return errorResult(`The tool ${tool} failed`);
}

function messageOf(item: unknown): unknown {
  if (isRecord(item) && (item.role === 'user' || item.role === 'assistant') && isRecord(item.content)) return item;
  if (isRecord(item) && typeof item.type === 'string') return { role: 'user', content: item };
  return { role: 'user', content: { type: 'text', text: typeof item === 'string' ? item : JSON.stringify(item) } };
}

export function toPromptResult(value: unknown, description: string | undefined): Record<string, unknown> {
  const described = description === undefined ? {} : { description };
  if (isRecord(value) && Array.isArray(value.messages)) return { ...described, ...value };
  return { ...described, messages: (Array.isArray(value) ? value : [value]).map(messageOf) };
}

function isContents(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !Array.isArray(value) && (typeof value.text === 'string' || typeof value.blob === 'string');
}

function contentsOf(uri: string, mimeType: string | undefined, value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return { uri, mimeType: mimeType ?? 'text/plain', text: value };
  if (value instanceof Uint8Array)
    return { uri, mimeType: mimeType ?? 'application/octet-stream', blob: toBase64(value) };
  if (isContents(value)) return { uri, ...(mimeType === undefined ? {} : { mimeType }), ...value };
  return { uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) };
}

export function toReadResult(uri: string, mimeType: string | undefined, value: unknown): unknown {
  if (isRecord(value) && Array.isArray(value.contents)) return value;
  if (Array.isArray(value) && value.length > 0 && value.every(isContents))
    return { contents: value.map((item) => contentsOf(uri, mimeType, item)) };
  return { contents: [contentsOf(uri, mimeType, value)] };
}

export function toCompletion(value: unknown): CompletionResult {
  const given: Partial<CompletionResult> = Array.isArray(value) ? {} : ((value as CompletionResult | undefined) ?? {});
  const values = Array.isArray(value) ? value.map(String) : (given.values ?? []);
  return {
    values: values.slice(0, MAX_VALUES),
    total: given.total ?? values.length,
    hasMore: given.hasMore ?? values.length > MAX_VALUES,
  };
}
