// The framework's own topics (an MCP server's notices `mcp:<path>`, a session's `mcp-session/<id>`, a tool call's
// stream `mcp/<session>/<stream>`) share the broadcast backplane with the application's. An application naming its
// topics after a client's input (a chat room per name) must not let a stranger publish into an MCP server's notices,
// or read them, through it: names in the framework's namespace are refused with a 400 problem, whichever entry point
// is given them (spec/mcp/server-stream shows the framework's own notices still reaching MCP clients).
import {
  broadcast,
  Consumes,
  GET,
  McpServer,
  Path,
  POST,
  Produces,
  resumable,
  resume,
  ResponseStatus,
  RestQuery,
  Tool,
} from '../../lib';
import { buildApp, call } from '../support/app';

@McpServer('/mcp')
class Notices {
  @Tool({ description: 'Says hello' })
  hello(): string {
    return 'hello';
  }
}

@Path('rooms')
class Rooms {
  @POST
  @Consumes('text/plain')
  @ResponseStatus(202)
  async say(@RestQuery() name: string, text: string): Promise<void> {
    await broadcast<string>(name).publish(text);
  }

  @POST
  @Path('streams')
  @ResponseStatus(202)
  async start(@RestQuery() name: string): Promise<void> {
    await resumable(name, ['a', 'b']);
  }

  @GET
  @Path('streams')
  @Produces('text/event-stream')
  async read(@RestQuery() name: string): Promise<unknown> {
    return (await resume(name)) ?? null;
  }
}

const app = buildApp([Notices, Rooms]);
const RESERVED = ['mcp:/mcp', 'mcp-session/00000000-0000-4000-8000-000000000000', 'mcp/a/b'];

describe("the framework's own broadcast topics", () => {
  it.each(RESERVED)('are refused to a publish of the application named %s', async (name) => {
    const answer = await call(app, `/rooms?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'injected',
    });
    expect([answer.status, await answer.json()]).toEqual([
      400,
      expect.objectContaining({
        code: 'RXREST_RESERVED_TOPIC',
        detail: `The topic name ${name} is in the framework's own namespace (mcp:, mcp/, mcp-session/)`,
      }),
    ]);
  });

  it('are refused to resumable() and resume(), and to app.broadcast()', async () => {
    for (const path of ['/rooms/streams?name=mcp%3A%2Fmcp']) {
      const started = await call(app, path, { method: 'POST' });
      const read = await call(app, path, { headers: { accept: 'text/event-stream' } });
      expect([started.status, read.status]).toEqual([400, 400]);
    }
    expect(() => app.broadcast('mcp:/mcp')).toThrow(/framework's own namespace/);
  });

  it('leave names that only look alike to the application', async () => {
    for (const name of ['mcp', 'mcpx:/a', 'room/mcp:/mcp', 'MCP:/mcp']) {
      const answer = await call(app, `/rooms?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'fine',
      });
      expect([name, answer.status]).toEqual([name, 202]);
    }
  });
});
