/** A JSON-RPC error object as an exception: the one an MCP server answered a client with (the server's own extends it). */

/** A JSON-RPC error the server answered with. */
export class McpClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpClientError';
  }
}
