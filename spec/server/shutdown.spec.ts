import { GET, Path } from '../../lib';
import { buildApp } from '../support/app';
import { get } from '../support/http';
import { within } from '../support/until';

let entered: () => void = () => undefined;

@Path('hang')
class Hanging {
  @GET forever(): Promise<string> {
    entered();
    return new Promise(() => undefined);
  }
  @GET @Path('ok') ok(): string {
    return 'ok';
  }
}

describe('RunningServer.close', () => {
  it('closes the connections of requests still running when framework.shutdown.timeout has passed', async () => {
    const server = await buildApp([Hanging], { 'framework.shutdown.timeout': '150ms' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      // Close only once the request is inside its handler: one still in the accept queue would not hold close() back.
      const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
      const stuck = get(server.port, '/hang');
      stuck.catch(() => undefined);
      await within(handlerEntered, 'the handler to be entered');
      const started = Date.now();
      await within(server.close(), 'the server to close');
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      await expect(stuck).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(server.server?.listening).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('stops gracefully on SIGTERM and SIGINT, and removes its signal handlers once closed', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const before = { SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') };
      const server = await buildApp([Hanging]).listen({ port: 0, host: '127.0.0.1' });
      try {
        expect(process.listenerCount(signal)).toBe(before[signal] + 1);
        expect(await get(server.port, '/hang/ok')).toEqual({ status: 200, body: 'ok' });
        const closed = new Promise((resolve) => server.server?.once('close', resolve));
        process.emit(signal, signal);
        await within(closed, `the server to close on ${signal}`);
        expect(server.server?.listening).toBe(false);
        await expect(get(server.port, '/hang/ok')).rejects.toThrow();
        expect({ SIGTERM: process.listenerCount('SIGTERM'), SIGINT: process.listenerCount('SIGINT') }).toEqual(before);
      } finally {
        // Whatever failed: a server left with its signal handlers would take the run's own SIGTERM for its shutdown.
        await server.close();
      }
    }
  });
});
