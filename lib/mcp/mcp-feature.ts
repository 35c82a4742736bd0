/**
 * MCP servers as a feature: its declaration. `@McpServer` classes are a kind of endpoint, compiled with resources
 * and socket endpoints by the build step (each joins security and rate limits there).
 */
import { defineFeature } from '../feature/define-feature';

export const mcpFeature = defineFeature({
  name: 'mcp',
  settings: ['framework.mcp.'],
  phases: ['authenticate', 'admit', 'invoke'],
  answers: [
    { status: 400, when: 'a JSON-RPC message that is not one, or an unknown session' },
    { status: 403, when: 'a Host the DNS-rebinding check does not allow' },
    { status: 404, when: 'an ended session' },
  ],
  transports: {
    answer: 'Streamable HTTP: a POST answered as JSON or as an SSE stream of the call',
    stream: 'a call’s progress and result as SSE, resumable with Last-Event-ID on any instance',
  },
  build: () => undefined,
});
