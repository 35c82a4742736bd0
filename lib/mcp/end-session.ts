/** `DELETE` of the Streamable HTTP transport: the client ends its session; its calls still running are cancelled. */
import type { StageFn } from '../pipeline/chain';
import type { McpServerRuntime } from './mcp-server-runtime';
import { withSession } from './session-lookup';
import { answerEmpty } from './transport-answers';

export function endSession(runtime: McpServerRuntime): StageFn {
  return (ctx) =>
    withSession(ctx, runtime.sessions, (session) => {
      runtime.sessions.close(session);
      return answerEmpty(ctx, 200);
    });
}
