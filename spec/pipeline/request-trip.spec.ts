// A request's trip at run time, read from stacks: the build step (lib/assembly) makes plans and is never on the stack
// of a request, whether in a handler's source or at the write onto the socket.
import { ServerResponse } from 'node:http';
import { Observable } from 'rxjs';
import { GET, Path, Produces, multi, type Multi } from '../../lib';
import { buildApp, withServer } from '../support/app';

const stacks = new Map<string, string[]>();

function record(name: string): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  stacks.set(name, [...(stacks.get(name) ?? []), stack]);
}

@Path('trip')
class TripResource {
  @GET
  @Path('json')
  json(): { ok: boolean } {
    record('json handler');
    return { ok: true };
  }

  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(): Multi<number> {
    return multi(
      new Observable<number>((subscriber) => {
        record('sse source');
        subscriber.next(1);
        subscriber.complete();
      }),
    );
  }
}

/** The lib/ folders on a stack, outermost first, each run of frames in one folder named once. */
export function foldersOf(stack: string): string[] {
  const folders: string[] = [];
  for (const line of stack.split('\n').reverse()) {
    const folder = /[/\\]lib[/\\]([a-z-]+)[/\\][^/\\]+\.ts:/.exec(line)?.[1];
    if (folder && folders[folders.length - 1] !== folder) folders.push(folder);
  }
  return folders;
}

describe('a request trip', () => {
  const write = ServerResponse.prototype.write;
  const end = ServerResponse.prototype.end;
  const recorded = (original: Function) =>
    function (this: ServerResponse, ...args: unknown[]): unknown {
      record(`${this.req.url} write`);
      return original.apply(this, args) as unknown;
    };

  beforeAll(() => {
    ServerResponse.prototype.write = recorded(write) as typeof write;
    ServerResponse.prototype.end = recorded(end) as typeof end;
  });

  afterAll(() => {
    ServerResponse.prototype.write = write;
    ServerResponse.prototype.end = end;
  });

  it('never climbs back into the build step, in a handler or at the write', async () => {
    await withServer(buildApp([TripResource]), async (server) => {
      expect(await (await fetch(`${server.url}/trip/json`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${server.url}/trip/sse`)).text()).toContain('data:1');
    });
    for (const name of ['json handler', 'sse source', '/trip/json write', '/trip/sse write'])
      expect(stacks.get(name)?.length).toBeGreaterThan(0);
    const crossed = [...stacks].map(
      ([name, list]) => `${name}: ${list.map((s) => foldersOf(s).join(' > ')).join(' | ')}`,
    );
    if (process.env.RXREST_PRINT_TRIP) process.stdout.write(`${crossed.join('\n')}\n`);
    for (const [, list] of stacks) for (const stack of list) expect(foldersOf(stack)).not.toContain('assembly');
  });
});
