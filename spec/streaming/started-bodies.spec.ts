import { open, type FileHandle } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { interval, map, finalize } from 'rxjs';
import {
  GET,
  Path,
  Produces,
  RequestContext,
  ResponseContext,
  ServerResponseFilter,
  multi,
  type Multi,
} from '../../lib';
import { buildApp, call } from '../support/app';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('started');
const file = join(dir, 'data.bin');
writeFileSync(file, 'file bytes');

const state = { finalized: 0, returned: 0, handles: [] as FileHandle[] };

class Replacing {
  @ServerResponseFilter() replace(request: RequestContext, response: ResponseContext) {
    const mode = request.header('x-mode');
    if (mode === 'throw') throw new Error('filter failed');
    if (mode === 'replace') response.setEntity('replaced', 'text/plain');
  }
}

@Path('started')
class StartedResource {
  @GET
  @Path('observable')
  @Produces('text/event-stream')
  observable(): Multi<string> {
    return multi(
      interval(1).pipe(
        map(String),
        finalize(() => state.finalized++),
      ),
    );
  }

  @GET
  @Path('iterable')
  @Produces('application/x-ndjson')
  async *iterable(): AsyncGenerator<number> {
    try {
      for (let i = 0; ; i++) {
        yield i;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      state.returned++;
    }
  }

  @GET
  @Path('handle')
  async handle(): Promise<FileHandle> {
    const handle = await open(file);
    state.handles.push(handle);
    return handle;
  }
}

const app = buildApp([Replacing, StartedResource], { 'framework.rest.sse.keep-alive': 0 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('releaseUnwritten', () => {
  it('unsubscribes a started Observable when a response filter throws and the error replaces the response', async () => {
    const before = state.finalized;
    const response = await call(app, '/started/observable', { headers: { 'x-mode': 'throw' } });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('filter failed');
    await settle();
    expect(state.finalized).toBe(before + 1);
  });

  it('unsubscribes a started Observable whose entity a response filter replaced', async () => {
    const before = state.finalized;
    const response = await call(app, '/started/observable', { headers: { 'x-mode': 'replace' } });
    expect(await response.text()).toBe('replaced');
    await settle();
    expect(state.finalized).toBe(before + 1);
  });

  it('returns a started async iterator when a response filter throws', async () => {
    const before = state.returned;
    const response = await call(app, '/started/iterable', { headers: { 'x-mode': 'throw' } });
    expect(response.status).toBe(500);
    await response.text();
    await settle();
    expect(state.returned).toBe(before + 1);
  });

  it('closes a returned FileHandle when a response filter throws', async () => {
    const response = await call(app, '/started/handle', { headers: { 'x-mode': 'throw' } });
    expect(response.status).toBe(500);
    await response.text();
    await settle();
    const handle = state.handles.at(-1)!;
    // A closed handle has fd -1.
    expect(handle.fd).toBe(-1);
  });

  it('leaves a stream that is written alone: it runs until the client cancels', async () => {
    const before = state.finalized;
    const response = await call(app, '/started/observable');
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^data:0\n\n/);
    await settle();
    expect(state.finalized).toBe(before);
    await reader.cancel();
    expect(state.finalized).toBe(before + 1);
  });
});
