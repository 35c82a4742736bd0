/** JSON-RPC 2.0 as MCP carries it: the message shapes, the error codes, and telling one kind of message from another. */
import { McpClientError } from '../client/mcp-client-error';

export type RequestId = string | number;
export type JsonRpcParams = Readonly<Record<string, unknown>>;

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcRequest extends JsonRpcNotification {
  readonly id: RequestId;
}

export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The error codes of JSON-RPC 2.0 (§5.1), and the ones MCP adds. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP: a transport-level refusal (no session, a header missing), as its SDKs answer. */
export const TRANSPORT_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;
export const RESOURCE_NOT_FOUND = -32002;

/**
 * Answered as a JSON-RPC error object, never as an HTTP error. The client's error is its base, never an instance of it:
 * an MCP server's error that a method met as a client is no answer of this server's.
 */
export class McpProtocolError extends McpClientError {
  override name = 'McpProtocolError';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request id as a key: 1 and "1" are two ids (JSON-RPC keeps their type), never one. */
export function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** A JSON-RPC id (JSON numbers are always finite). */
export function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Params, when present, must be an object (MCP never sends arrays). */
function isMessage(value: unknown): value is JsonRpcMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') return false;
  if ('method' in value) {
    if (typeof value.method !== 'string' || ('params' in value && !isObject(value.params))) return false;
    return !('id' in value) || isId(value.id);
  }
  if (!('id' in value) || !(isId(value.id) || value.id === null)) return false;
  if ('result' in value) return !('error' in value);
  const error = value.error;
  return isObject(error) && typeof error.code === 'number' && typeof error.message === 'string';
}

/** One message or a batch; `undefined` when any is not well formed. */
export function readMessages(body: unknown): JsonRpcMessage[] | undefined {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  return list.length > 0 && list.every(isMessage) ? list : undefined;
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

export function resultMessage(id: RequestId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorMessage(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

export function notificationMessage(method: string, params: JsonRpcParams): JsonRpcNotification {
  return { jsonrpc: '2.0', method, params };
}
