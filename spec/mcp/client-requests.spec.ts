// A tool asking its client while it runs: sampling and elicitation as Observables, sent on the call's own stream and
// answered by the client's own POST, through the official SDK client over a real socket.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CancelledNotificationSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { defaultIfEmpty, firstValueFrom, map, takeUntil, timer, type Observable } from 'rxjs';
import { z } from 'zod';
import { McpCall, McpServer, Tool, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { until } from '../support/until';

@McpServer('/mcp')
class Asking {
  @Tool({ description: 'Asks the model', input: z.object({ question: z.string() }) })
  ask(args: { question: string }, call: McpCall): Observable<string> {
    return call
      .sample({ messages: [{ role: 'user', content: { type: 'text', text: args.question } }], maxTokens: 20 })
      .pipe(map((answer) => `the model says ${String(answer.content.text)}`));
  }

  @Tool({ description: 'Asks the user, then the model' })
  async both(call: McpCall): Promise<string> {
    const form = await firstValueFrom(
      call.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      }),
    );
    const name = String(form.content?.name);
    const answer = await firstValueFrom(
      call.sample({ messages: [{ role: 'user', content: { type: 'text', text: `greet ${name}` } }], maxTokens: 5 }),
    );
    return `${form.action} ${name}: ${String(answer.content.text)}`;
  }

  @Tool({ description: 'Asks, and gives up after a while' })
  impatient(call: McpCall): Observable<string> {
    return call.elicit({ message: 'Take your time', requestedSchema: { type: 'object', properties: {} } }).pipe(
      takeUntil(timer(100)),
      map(() => 'answered'),
      defaultIfEmpty('gave up'),
    );
  }
}

let server: RunningServer;

beforeAll(async () => {
  server = await buildApp([Asking]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});

afterAll(() => server.close());

async function connect(capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name: 'asked', version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

describe('sampling and elicitation', () => {
  it("sends the tool's sampling request to the client on the call's stream, and gives the tool its answer", async () => {
    const client = await connect({ sampling: {} });
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'spec-model' };
    });
    const result = await client.callTool({ name: 'ask', arguments: { question: 'the answer?' } });
    expect(asked).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'the answer?' } }], maxTokens: 20 },
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'the model says forty-two' }]);
    await client.close();
  });

  it('asks one thing after another, elicitation then sampling, in one call', async () => {
    const client = await connect({ sampling: {}, elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      content: {
        type: 'text',
        text: `hello ${String((request.params.messages[0]!.content as { text: string }).text).slice(6)}`,
      },
      model: 'spec-model',
    }));
    expect((await client.callTool({ name: 'both' })).content).toEqual([
      { type: 'text', text: 'accept Ada: hello Ada' },
    ]);
    await client.close();
  });

  it('answers a tool asking what the client cannot do with an error result naming the capability', async () => {
    const client = await connect({});
    expect(await client.callTool({ name: 'ask', arguments: { question: '?' } })).toEqual({
      content: [{ type: 'text', text: 'The client does not support sampling' }],
      isError: true,
    });
    await client.close();
  });

  it("gives the tool the client's refusal as an error, in the client's words", async () => {
    const client = await connect({ sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      throw new McpError(-32001, 'the user said no');
    });
    const result = await client.callTool({ name: 'ask', arguments: { question: '?' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'The client answered with an error: MCP error -32001: the user said no' },
    ]);
    await client.close();
  });

  it('tells the client its request is cancelled when the tool no longer waits for it', async () => {
    const client = await connect({ elicitation: {} });
    let askedId: string | number | undefined;
    const cancelled: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      askedId = extra.requestId;
      return new Promise(() => undefined);
    });
    client.setNotificationHandler(
      CancelledNotificationSchema,
      (notification) => void cancelled.push(notification.params),
    );
    const result = await client.callTool({ name: 'impatient' });
    expect(result.content).toEqual([{ type: 'text', text: 'gave up' }]);
    await until(() => (cancelled.length > 0 ? cancelled : undefined), 'the cancellation');
    expect(cancelled).toEqual([{ requestId: askedId, reason: 'no longer needed' }]);
    await client.close();
  });
});
