/**
 * An application's own feature, made with the same contract as the framework's: it joins named phases, declares
 * the statuses it answers with (which the OpenAPI document then lists), and is started, shut down and closed with
 * the application.
 */
import {
  BuildKey,
  ContextKey,
  DefinitionError,
  GET,
  Path,
  defineFeature,
  describeConfiguration,
  type Feature,
  McpServer,
  Tool,
  resolveConfig,
  type RestApp,
} from '../../lib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuildScope } from '../../lib/assembly/build-scope';
import { builtInFeatures } from '../../lib/assembly/rest-application';
import { HISTORY } from '../../lib/broadcast/durable-streams-feature';
import { ProblemCollector } from '../../lib/errors/definition-error';
import { findClassMeta } from '../../lib/metadata/store';
import { ENDPOINT_SOURCES } from '../../lib/pipeline/endpoint';
import { buildApp, call } from '../support/app';

@Path('tickets')
class TicketResource {
  @GET list(): string[] {
    return ['a', 'b'];
  }

  @GET @Path('free') free(): string {
    return 'no ticket needed';
  }
}

const STARTED = new ContextKey<number>('started');
const LEDGER = new BuildKey<string[]>('ledger');

/** Requires an X-Ticket header on /tickets (402 without it); stamps every answer with the phase count it saw. */
function ticketFeature(events: string[]): Feature {
  return defineFeature({
    name: 'tickets',
    settings: [],
    phases: ['receive', 'admit', 'finish', 'complete'],
    answers: [{ status: 402, when: 'a /tickets request without an X-Ticket header' }],
    transports: { answer: 'an X-Ticket header is required; every answer says how long it took' },
    build(build) {
      const ledger: string[] = [];
      build.provide(LEDGER, ledger);
      return {
        receive: (ctx) => (ctx.set(STARTED, 7), ctx),
        endpoint: (plan) =>
          plan.method.name === 'list'
            ? [
                {
                  phase: 'admit',
                  answers: [402],
                  step: (ctx) =>
                    ctx.headerValue('x-ticket') === null
                      ? ctx.abortWith(new Response('a ticket, please', { status: 402 }))
                      : ctx,
                },
              ]
            : undefined,
        finish: (ctx) => void ctx.response?.headers.set('x-started', String(ctx.get(STARTED))),
        complete: (ctx, status) => void ledger.push(`${ctx.method} ${ctx.rawPath} ${status}`),
        start: () => void events.push('start'),
        shutdown: () => void events.push('shutdown'),
        close: () => void events.push('close'),
      };
    },
  });
}

describe('an application feature', () => {
  let app: RestApp;
  const events: string[] = [];

  beforeAll(() => {
    app = buildApp([TicketResource], { 'framework.openapi.enabled': 'true' }, { features: [ticketFeature(events)] });
  });

  it('joins the phases it declared: refuses in admit, stamps in finish, errors and unrouted answers included', async () => {
    const refused = await call(app, '/tickets');
    expect([refused.status, await refused.text(), refused.headers.get('x-started')]).toEqual([
      402,
      'a ticket, please',
      '7',
    ]);
    const admitted = await call(app, '/tickets', { headers: { 'x-ticket': 'yes' } });
    expect([admitted.status, await admitted.json()]).toEqual([200, ['a', 'b']]);
    expect((await call(app, '/tickets/free')).status).toBe(200);
    expect((await call(app, '/nowhere')).headers.get('x-started')).toBe('7');
  });

  it('lists the statuses it declared on the endpoints it joins in the OpenAPI document, and only there', async () => {
    const document = (await (await call(app, '/q/openapi?format=json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(document.paths['/tickets']!.get.responses)).toContain('402');
    expect(Object.keys(document.paths['/tickets/free']!.get.responses)).not.toContain('402');
  });

  it('is started with the build and closed with the application', async () => {
    expect(events).toEqual(['start']);
    await app.close();
    expect(events).toEqual(['start', 'close']);
  });
});

describe('defineFeature', () => {
  it('refuses a phase that is not one, and a name that is not lower-case words', () => {
    const base = { settings: [], transports: {}, build: () => undefined };
    expect(() => defineFeature({ ...base, name: 'x', phases: ['before-everything' as 'receive'] })).toThrow(
      'The feature x joins an unknown phase "before-everything"',
    );
    expect(() => defineFeature({ ...base, name: 'Bad Name', phases: [] })).toThrow("lower-case words joined by '-'");
  });

  it('refuses a declared answer whose status is no HTTP status', () => {
    const base = { settings: [], transports: {}, phases: [], build: () => undefined };
    for (const status of [99, 600, 402.5])
      expect(() => defineFeature({ ...base, name: 'paid', answers: [{ status, when: 'always' }] })).toThrow(
        `The feature paid declares a status that is not one: ${status}`,
      );
    expect(defineFeature({ ...base, name: 'paid', answers: [{ status: 402, when: 'always' }] }).name).toBe('paid');
  });
});

describe('the build with features', () => {
  it('fails, naming the feature, when one joins a phase it did not declare or is listed twice', () => {
    const sneaky = defineFeature({
      name: 'sneaky',
      settings: [],
      phases: ['finish'],
      transports: {},
      build: () => ({ endpoint: (plan) => [{ phase: 'authenticate', step: (ctx) => ctx }] }),
    });
    const build = () => buildApp([TicketResource], {}, { features: [sneaky, sneaky] });
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(/the feature sneaky: joins authenticate without declaring it/);
    expect(build).toThrow(/the feature sneaky: is listed twice/);
  });

  it('hands what one feature provides to the features after it', () => {
    const seen: (string[] | undefined)[] = [];
    const reader = defineFeature({
      name: 'reader',
      settings: [],
      phases: [],
      transports: {},
      build: (build) => void seen.push(build.find(LEDGER)),
    });
    buildApp([TicketResource], {}, { features: [ticketFeature([]), reader] });
    expect(seen).toEqual([[]]);
  });
});

@McpServer('/mcp')
class EchoServer {
  @Tool({ description: 'Echoes' }) echo(): string {
    return 'echo';
  }
}

/** A table cell without its parenthesised remarks. */
function plain(cell: string): string {
  return cell.replace(/ \([^)]*\)/g, '');
}

describe('the built-in features', () => {
  const features = builtInFeatures();
  const named = (name: string) => features.find((feature) => feature.name === name)!;

  it('do their work through their own parts, none only declaring: tracing wraps requests, MCP makes its endpoints, durable streams hand over their history', () => {
    const unit = { type: EchoServer, meta: findClassMeta(EchoServer)!, instance: new EchoServer(), isResource: false };
    const scope = new BuildScope(resolveConfig({}), process.cwd(), [unit], '', new ProblemCollector());
    expect(typeof named('tracing').build(scope)?.around).toBe('function');
    expect(typeof named('mcp').build(scope)?.close).toBe('function');
    expect(scope.gather(ENDPOINT_SOURCES)).toHaveLength(1);
    named('durable-streams').build(scope);
    expect(scope.find(HISTORY)?.retention.maxEvents).toBeGreaterThan(0);
  });

  const keys = describeConfiguration().map((row) => row.key);

  it('declare only settings that exist (a key, or a prefix ending in .)', () => {
    const unknown = features.flatMap((feature) =>
      feature.settings
        .filter((setting) => !keys.some((key) => (setting.endsWith('.') ? key.startsWith(setting) : key === setting)))
        .map((setting) => `${feature.name}: ${setting}`),
    );
    expect(unknown).toEqual([]);
  });

  it("are drawn in docs/features.md's table as they declare themselves: phases, and the statuses they answer with", () => {
    const page = readFileSync(join(__dirname, '..', '..', 'docs', 'features.md'), 'utf8');
    const drawn = page
      .split('\n')
      .filter((line) => /^\| [a-z-]+ \| `/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      // A cell's parenthesised remarks explain; the names and numbers are what the code declares.
      .map(([, name, , phases, answers]) => [name, plain(phases!), plain(answers!)]);
    const declared = features.map((feature) => [
      feature.name,
      feature.phases.join(', '),
      (feature.answers ?? []).map((answer) => answer.status).join(', ') || '—',
    ]);
    expect(drawn.sort()).toEqual(declared.sort());
  });

  it('are one each of allowed hosts, forwarded origin, security, nosniff, CORS, rate limits, tracing, metrics, health, broadcast, durable streams, WebSockets, OpenAPI, compression, static files, multipart, MCP and links', () => {
    expect(features.map((feature) => feature.name).sort()).toEqual(
      [
        'allowed-hosts',
        'forwarded-origin',
        'nosniff',
        'durable-streams',
        'broadcast',
        'compression',
        'cors',
        'health',
        'links',
        'mcp',
        'metrics',
        'multipart',
        'openapi',
        'rate-limits',
        'security',
        'static-files',
        'tracing',
        'websocket',
      ].sort(),
    );
  });
});
