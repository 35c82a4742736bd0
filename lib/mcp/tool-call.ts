/** One `tools/call` as the messages its stream carries: notifications as they come, then the response. */
import type { Subscription } from 'rxjs';
import { Observable } from 'rxjs/internal/Observable';
import { defer } from 'rxjs/internal/observable/defer';
import { logging } from '../logging/logger';
import type { CompiledTool } from './compile-catalog';
import { describeViolations } from './input-binding';
import {
  errorMessage,
  idKey,
  INVALID_REQUEST,
  isId,
  McpProtocolError,
  notificationMessage,
  resultMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './json-rpc';
import { McpCall, REQUIRED_CAPABILITY, type CallOutlet } from './mcp-call';
import type { McpSession } from './mcp-session';
import { isNotice, passesLevel, type McpNotice } from './notices';
import type { RequestScope } from './server-methods';
import {
  errorResult,
  failedResult,
  outputOf,
  toCallToolResult,
  ToolError,
  type CallToolResult,
} from './method-results';

const log = logging.getLogger('rxrest.mcp');

/** MCP: a request id is not used twice by the requestor within the session; one a running call holds is refused. */
const DUPLICATE_ID = 'Invalid Request: a call with this id is running in this session';

/** The request goes out on the call's stream, the client's answer comes back through the session (its own POST). */
function asker(session: McpSession, send: (message: JsonRpcMessage) => void): CallOutlet['ask'] {
  return (method, params) =>
    new Observable<unknown>((waiting) => {
      const capability = REQUIRED_CAPABILITY[method];
      if (capability !== undefined && !(capability in session.facts.capabilities))
        return waiting.error(new ToolError(`The client does not support ${capability}`));
      const id = `rxrest-${crypto.randomUUID()}`;
      let answered = false;
      const stop = session.awaitReply(id, (response) => {
        answered = true;
        if (!response.error) return (waiting.next(response.result), waiting.complete());
        const { code, message, data } = response.error;
        waiting.error(new McpProtocolError(code, message, data));
      });
      send({ jsonrpc: '2.0', id, method, params });
      return () => {
        if (answered) return;
        stop();
        send(notificationMessage('notifications/cancelled', { requestId: id, reason: 'no longer needed' }));
      };
    });
}

/** `undefined` when the client did not ask for it. */
function noticeMessage(
  notice: McpNotice,
  token: string | number | undefined,
  session: McpSession,
): JsonRpcMessage | undefined {
  if (notice.kind === 'progress') {
    if (token === undefined) return undefined;
    const { progress, total, message } = notice;
    return notificationMessage('notifications/progress', { progressToken: token, progress, total, message });
  }
  if (!passesLevel(notice.level, session.logLevel)) return undefined;
  const { level, logger, data } = notice;
  return notificationMessage('notifications/message', { level, logger, data });
}

function checkedResult(tool: CompiledTool, value: unknown): CallToolResult {
  const result = toCallToolResult(value);
  if (!tool.output || result.isError) return result;
  if (tool.output.safeParse(result.structuredContent).success) return result;
  log.error(`${tool.method.where} returned structured content that does not fit its output schema`);
  return errorResult(`The tool ${tool.name} returned a result that does not fit its output schema`);
}

function run(
  tool: CompiledTool,
  request: JsonRpcRequest,
  { session, security }: RequestScope,
  sink: { next(message: JsonRpcMessage): void; finish(result: CallToolResult): void },
  handle: Pick<CallOutlet, 'closeStream'> & { signal: AbortSignal },
): Subscription | void {
  const progressToken = (request.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
  const token = isId(progressToken) ? progressToken : undefined;
  const notice = (notice: McpNotice) => {
    const message = noticeMessage(notice, token, session);
    if (message) sink.next(message);
  };
  const bound = tool.input.bind(request.params?.arguments ?? {});
  if (!bound.ok)
    return sink.finish(errorResult(`Invalid arguments for ${tool.name}: ${describeViolations(bound.violations)}`));
  const outlet = { notice, ask: asker(session, sink.next), closeStream: handle.closeStream };
  const call = tool.method.takesCall ? new McpCall(request.id, session.facts, handle.signal, outlet) : undefined;
  let last: unknown;
  // A throw of the method itself fails the call as its Observable's error does.
  return defer(() => outputOf(tool.method.invoke(bound.value, security, call))).subscribe({
    next: (value) => (isNotice(value) ? notice(value) : (last = value)),
    error: (error: unknown) => sink.finish(failedResult(error, tool.name)),
    // A microtask later: what the tool's end unsubscribes (a request it no longer waits for) still goes out before.
    complete: () => queueMicrotask(() => sink.finish(checkedResult(tool, last))),
  });
}

/** The client's cancellation ends the messages early, with no response, as MCP says; unsubscribing aborts the call. */
export function callTool(
  tool: CompiledTool,
  request: JsonRpcRequest,
  scope: RequestScope,
  closeStream: () => void,
): Observable<JsonRpcMessage> {
  return new Observable<JsonRpcMessage>((subscriber) => {
    const { session } = scope;
    const key = idKey(request.id);
    // A request id is the client's name for its call (to cancel it, to read its answer): one running call each.
    if (session.calls.has(key)) {
      subscriber.next(errorMessage(request.id, INVALID_REQUEST, DUPLICATE_ID));
      return subscriber.complete();
    }
    const running = { cancel: () => subscriber.complete() };
    session.calls.set(key, running);
    const controller = new AbortController();
    let finished = false;
    const finish = (result: CallToolResult) => {
      finished = true;
      subscriber.next(resultMessage(request.id, result));
      subscriber.complete();
    };
    const next = (message: JsonRpcMessage) => subscriber.next(message);
    const subscription = run(tool, request, scope, { next, finish }, { closeStream, signal: controller.signal });
    return () => {
      subscription?.unsubscribe();
      // A call that ended by itself was not cancelled.
      if (!finished) controller.abort();
      if (session.calls.get(key) === running) session.calls.delete(key);
      session.touch();
    };
  });
}
