import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defer, of } from 'rxjs';
import { z } from 'zod';
import { McpServer, Tool, ToolError, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { connectClient } from '../support/mcp';

const Address = z.object({ street: z.string(), city: z.string() }).meta({ id: 'address' });

class Place {
  static schema = z.object({ name: z.string(), population: z.number().int().min(0) });
  name = '';
  population = 0;

  describe(): string {
    return `${this.name} (${this.population})`;
  }
}

@McpServer('/mcp', { name: 'tools-spec' })
class ToolServer {
  @Tool({ description: 'Echoes a text', input: z.object({ text: z.string().min(1) }) })
  echo(args: { text: string }): string {
    return args.text;
  }

  @Tool({
    description: 'Adds two numbers',
    title: 'Addition',
    input: z.object({ a: z.number(), b: z.number() }),
    output: z.object({ sum: z.number() }),
    annotations: { readOnlyHint: true },
  })
  add(args: { a: number; b: number }): { sum: number } {
    return { sum: args.a + args.b };
  }

  @Tool({
    description: 'Takes a person with an address',
    input: z.object({ name: z.string(), address: Address }).strict(),
  })
  register(args: { name: string; address: { city: string } }): string {
    return `${args.name} of ${args.address.city}`;
  }

  @Tool({ description: 'Describes a place, bound as its class' })
  place(place: Place): string {
    return place.describe();
  }

  @Tool({ description: 'Answers later' })
  async later(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return 'later';
  }

  @Tool({ description: 'Answers a first value of an Observable' })
  observed(): unknown {
    return defer(() => of('first', 'last'));
  }

  @Tool({ description: 'Answers a result as it is' })
  picture(): unknown {
    return { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] };
  }

  @Tool({ description: 'Refuses, for the model to read' })
  refuse(): string {
    throw new ToolError('No city of that name');
  }

  @Tool({ description: 'Fails inside' })
  crash(): string {
    throw new Error('cannot open /srv/secret/db.sqlite');
  }

  @Tool({ description: 'Breaks its own output schema', output: z.object({ n: z.number() }) })
  wrong(): unknown {
    return { n: 'not a number' };
  }
}

let server: RunningServer;
let client: Client;

beforeAll(async () => {
  server = await buildApp([ToolServer]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  ({ client } = await connectClient(`${server.url}/mcp`));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

const text = (result: unknown) => (result as { content: { type: string; text?: string }[] }).content[0]?.text;

describe('tools/list', () => {
  it('lists each tool with its description, title, annotations and schemas', async () => {
    const { tools } = await client.listTools();
    const add = tools.find((tool) => tool.name === 'add');
    expect(add).toEqual({
      name: 'add',
      title: 'Addition',
      description: 'Adds two numbers',
      annotations: { readOnlyHint: true },
      inputSchema: expect.objectContaining({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      }),
      outputSchema: expect.objectContaining({ type: 'object', properties: { sum: { type: 'number' } } }),
    });
    expect(tools.map((tool) => tool.name)).toEqual([
      'echo',
      'add',
      'register',
      'place',
      'later',
      'observed',
      'picture',
      'refuse',
      'crash',
      'wrong',
    ]);
  });

  it('keeps the JSON Schema 2020-12 of an input whole: $schema, $defs and additionalProperties', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'register')!.inputSchema;
    expect(schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      required: ['name', 'address'],
      additionalProperties: false,
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
          required: ['street', 'city'],
        },
      },
    });
  });

  it("takes a class's static schema as the input of a tool whose parameter is of that class", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'place')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
    });
    expect(tools.find((tool) => tool.name === 'later')!.inputSchema).toEqual({ type: 'object', properties: {} });
  });
});

describe('tools/call', () => {
  it('answers a string as one text', async () => {
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('answers an object as structured content, with its JSON as text', async () => {
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    });
  });

  it("binds the arguments into an instance of the parameter's class", async () => {
    expect(text(await client.callTool({ name: 'place', arguments: { name: 'Oslo', population: 700000 } }))).toBe(
      'Oslo (700000)',
    );
  });

  it('answers what a Promise resolves to, the last value of an Observable, and a CallToolResult as it is', async () => {
    expect(text(await client.callTool({ name: 'later' }))).toBe('later');
    expect(text(await client.callTool({ name: 'observed' }))).toBe('last');
    expect(await client.callTool({ name: 'picture' })).toEqual({
      content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    });
  });

  it('answers arguments that do not fit the input with an error result naming the field, for the model to correct', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: '' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid arguments for echo: text: /);
    const strict = await client.callTool({ name: 'register', arguments: { name: 'Ada', address: {}, extra: 1 } });
    expect(strict.isError).toBe(true);
    expect(text(strict)).toContain('address.street');
  });

  it('answers a ToolError with its message, any other failure without its internals', async () => {
    expect(await client.callTool({ name: 'refuse' })).toEqual({
      content: [{ type: 'text', text: 'No city of that name' }],
      isError: true,
    });
    const crashed = await client.callTool({ name: 'crash' });
    expect(crashed).toEqual({ content: [{ type: 'text', text: 'The tool crash failed' }], isError: true });
  });

  it('answers a result that breaks the output schema as an error', async () => {
    const result = await client.callTool({ name: 'wrong' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('The tool wrong returned a result that does not fit its output schema');
  });

  it('answers an unknown tool with a JSON-RPC error -32602', async () => {
    await expect(client.callTool({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });
});
