import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { from } from 'rxjs';
import { z } from 'zod';
import {
  Completion,
  McpResource,
  McpServer,
  NotFoundException,
  Prompt,
  type CompletionRequest,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { connectClient } from '../support/mcp';

const CITIES = ['Paris', 'Parma', 'Prague', 'Porto', 'Oslo'];

@McpServer('/mcp', { name: 'resources-spec' })
class Library {
  @McpResource({ uri: 'test://readme', name: 'readme', description: 'How to', mimeType: 'text/markdown' })
  readme(): string {
    return '# Read me';
  }

  @McpResource({ uri: 'test://logo', mimeType: 'image/png' })
  logo(): Uint8Array {
    return Uint8Array.from([137, 80, 78, 71]);
  }

  @McpResource({ uriTemplate: 'test://cities/{name}/weather', name: 'weather', mimeType: 'application/json' })
  weather(vars: { name: string }): Promise<{ city: string; sky: string }> {
    if (!CITIES.includes(vars.name)) return Promise.reject(new NotFoundException(`no city ${vars.name}`));
    return Promise.resolve({ city: vars.name, sky: 'clear' });
  }

  @Completion({ resourceTemplate: 'test://cities/{name}/weather', argument: 'name' })
  cities(request: CompletionRequest): string[] {
    return CITIES.filter((city) => city.startsWith(request.value));
  }

  @Prompt({ description: 'Asks for a haiku' })
  haiku(): string {
    return 'Write a haiku about the sea.';
  }

  @Prompt({
    name: 'trip',
    title: 'Plan a trip',
    description: 'Plans a trip',
    arguments: z.object({ city: z.string().describe('Where to'), days: z.string().optional() }),
  })
  trip(args: { city: string; days?: string }): unknown {
    return from([
      [
        { role: 'user', content: { type: 'text', text: `Plan ${args.days ?? 'two'} days in ${args.city}` } },
        { role: 'assistant', content: { type: 'text', text: 'Gladly.' } },
      ],
    ]);
  }

  @Completion({ prompt: 'trip', argument: 'city' })
  tripCities(request: CompletionRequest): { values: string[]; total: number; hasMore: boolean } {
    const values = CITIES.filter((city) => city.startsWith(request.value) && city !== request.context.days);
    return { values, total: 500, hasMore: true };
  }
}

let server: RunningServer;
let client: Client;

beforeAll(async () => {
  server = await buildApp([Library]).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  ({ client } = await connectClient(`${server.url}/mcp`));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('resources', () => {
  it('declares resources, prompts and completions in its capabilities', () => {
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it('lists fixed resources and templates apart', async () => {
    expect((await client.listResources()).resources).toEqual([
      { uri: 'test://readme', name: 'readme', description: 'How to', mimeType: 'text/markdown' },
      { uri: 'test://logo', name: 'logo', mimeType: 'image/png' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'test://cities/{name}/weather', name: 'weather', mimeType: 'application/json' },
    ]);
  });

  it('reads text, bytes as base64, and a template with its variables', async () => {
    expect(await client.readResource({ uri: 'test://readme' })).toEqual({
      contents: [{ uri: 'test://readme', mimeType: 'text/markdown', text: '# Read me' }],
    });
    expect(await client.readResource({ uri: 'test://logo' })).toEqual({
      contents: [{ uri: 'test://logo', mimeType: 'image/png', blob: 'iVBORw==' }],
    });
    expect(await client.readResource({ uri: 'test://cities/Oslo/weather' })).toEqual({
      contents: [
        { uri: 'test://cities/Oslo/weather', mimeType: 'application/json', text: '{"city":"Oslo","sky":"clear"}' },
      ],
    });
  });

  it('answers -32002 for a URI nobody serves, or one its method says is not there', async () => {
    await expect(client.readResource({ uri: 'test://nothing' })).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: 'test://cities/Atlantis/weather' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('takes subscriptions and unsubscriptions', async () => {
    expect(await client.subscribeResource({ uri: 'test://readme' })).toEqual({});
    expect(await client.unsubscribeResource({ uri: 'test://readme' })).toEqual({});
  });
});

describe('prompts', () => {
  it('lists prompts with their arguments, from the zod object', async () => {
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'haiku', description: 'Asks for a haiku', arguments: [] },
      {
        name: 'trip',
        title: 'Plan a trip',
        description: 'Plans a trip',
        arguments: [
          { name: 'city', description: 'Where to', required: true },
          { name: 'days', required: false },
        ],
      },
    ]);
  });

  it('answers a text as one user message, and messages as they are', async () => {
    expect(await client.getPrompt({ name: 'haiku' })).toEqual({
      description: 'Asks for a haiku',
      messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku about the sea.' } }],
    });
    const trip = await client.getPrompt({ name: 'trip', arguments: { city: 'Porto', days: 'three' } });
    expect(trip.messages.map((message) => message.content)).toEqual([
      { type: 'text', text: 'Plan three days in Porto' },
      { type: 'text', text: 'Gladly.' },
    ]);
  });

  it('answers -32602 for an unknown prompt or arguments that do not fit', async () => {
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'trip', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('city'),
    });
  });
});

describe('completion/complete', () => {
  it('completes a template variable and a prompt argument, with the other arguments as context', async () => {
    expect(
      await client.complete({
        ref: { type: 'ref/resource', uri: 'test://cities/{name}/weather' },
        argument: { name: 'name', value: 'Pa' },
      }),
    ).toEqual({ completion: { values: ['Paris', 'Parma'], total: 2, hasMore: false } });
    expect(
      await client.complete({
        ref: { type: 'ref/prompt', name: 'trip' },
        argument: { name: 'city', value: 'P' },
        context: { arguments: { days: 'Parma' } },
      }),
    ).toEqual({ completion: { values: ['Paris', 'Prague', 'Porto'], total: 500, hasMore: true } });
  });

  it('answers no values for an argument nothing completes', async () => {
    expect(
      await client.complete({ ref: { type: 'ref/prompt', name: 'haiku' }, argument: { name: 'x', value: '' } }),
    ).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });
});
