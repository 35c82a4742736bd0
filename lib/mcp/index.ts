/** The Model Context Protocol part of the public API: MCP servers as resources (docs/mcp.md). */
export {
  Completion,
  McpResource,
  McpServer,
  Prompt,
  Tool,
  type CompletionOptions,
  type McpResourceOptions,
  type McpServerOptions,
  type PromptOptions,
  type ToolAnnotations,
  type ToolOptions,
} from '../decorators/mcp';
export { mcpNotifier, type McpList, type McpNotifier } from './server-notices';
export {
  McpCall,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitParams,
  type ElicitResult,
  type McpClientFacts,
  type SamplingMessage,
} from './mcp-call';
export {
  logNotice,
  progressNotice,
  type LogNotice,
  type McpLogLevel,
  type McpNotice,
  type ProgressNotice,
} from './notices';
export {
  ToolError,
  type CallToolResult,
  type CompletionRequest,
  type CompletionResult,
  type ContentBlock,
} from './method-results';
