/**
 * A span per MCP request, in OpenTelemetry's conventions for MCP: `tools/call forecast`, a child of the HTTP request's
 * span, active while the tool runs (its own spans nest under it), ended with the response — for a tool call that may
 * be long after the HTTP head went out — or when the call is cancelled.
 */
import type * as Api from '@opentelemetry/api';
import { Observable } from 'rxjs/internal/Observable';
import type { RequestContext } from '../pipeline/request-context';
import { requestTrace } from '../tracing/request-span';
import { tracing, type Tracing } from '../tracing/tracing';
import { isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from './json-rpc';
import type { McpSession } from './mcp-session';

function targetOf(request: JsonRpcRequest): string | undefined {
  const params = request.params;
  const target = params?.name ?? params?.uri;
  return typeof target === 'string' ? target : undefined;
}

/** The span of `request`, and the context it is active in (under the HTTP request's span). */
function startSpan(
  traced: Tracing,
  ctx: RequestContext,
  request: JsonRpcRequest,
  session: McpSession,
): { span: Api.Span; active: Api.Context } {
  const { api, tracer } = traced;
  const target = targetOf(request);
  const attributes: Api.Attributes = {
    'mcp.method.name': request.method,
    'mcp.session.id': session.id,
    'mcp.protocol.version': session.facts.protocolVersion,
    'jsonrpc.request.id': String(request.id),
  };
  if (request.method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (target !== undefined) attributes['mcp.resource.uri'] = target;
  const parent = requestTrace(ctx)?.context ?? api.context.active();
  const span = tracer.startSpan(
    target === undefined ? request.method : `${request.method} ${target}`,
    { kind: api.SpanKind.SERVER, attributes },
    parent,
  );
  return { span, active: api.trace.setSpan(parent, span) };
}

/** Marks the span with what the response says (an error object, or a tool's error result) and ends it. */
function endSpan(traced: Tracing, span: Api.Span, response: JsonRpcResponse | undefined): void {
  if (response === undefined) span.setAttribute('rxrest.mcp.cancelled', true);
  else if (response.error) {
    span.setAttribute('rpc.jsonrpc.error_code', response.error.code);
    span.setAttribute('error.type', String(response.error.code));
    span.setStatus({ code: traced.api.SpanStatusCode.ERROR, message: response.error.message });
  } else if ((response.result as { isError?: unknown } | undefined)?.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: traced.api.SpanStatusCode.ERROR });
  }
  span.end();
}

/** `messages` (a call's notifications, then its response) inside a span, when the application traces. */
export function tracedCall(
  ctx: RequestContext,
  request: JsonRpcRequest,
  session: McpSession,
  messages: Observable<JsonRpcMessage>,
): Observable<JsonRpcMessage> {
  const traced = tracing();
  if (!traced) return messages;
  return new Observable<JsonRpcMessage>((subscriber) => {
    const { span, active } = startSpan(traced, ctx, request, session);
    let response: JsonRpcResponse | undefined;
    const subscription = traced.api.context.with(active, () =>
      messages.subscribe({
        next: (message) => {
          if (isResponse(message)) response = message;
          subscriber.next(message);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
    return () => {
      subscription.unsubscribe();
      endSpan(traced, span, response);
    };
  });
}

/** `answer` (one response) inside a span, when the application traces. */
export function tracedAnswer(
  ctx: RequestContext,
  request: JsonRpcRequest,
  session: McpSession,
  answer: () => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const traced = tracing();
  if (!traced) return answer();
  const { span, active } = startSpan(traced, ctx, request, session);
  return traced.api.context.with(active, answer).then((response) => (endSpan(traced, span, response), response));
}
