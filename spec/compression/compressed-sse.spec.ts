import { createGunzip } from 'node:zlib';
import { interval, map, take } from 'rxjs';
import { Compressed, GET, multi, Path, Produces, type Multi } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('events')
class Events {
  @GET
  @Path('zipped')
  @Compressed
  @Produces('text/event-stream')
  zipped(): Multi<string> {
    return multi(interval(200).pipe(take(3), map(String)));
  }
  @GET
  @Path('plain')
  @Produces('text/event-stream')
  plain(): Multi<string> {
    return multi(interval(10).pipe(take(2), map(String)));
  }
}

describe('compressed SSE', () => {
  const enabled = { 'framework.http.enable-compression': true };

  it('gzips a @Compressed event stream and delivers each event before the next one is produced', async () => {
    const response = await call(buildApp([Events], enabled), '/events/zipped', {
      headers: { 'Accept-Encoding': 'gzip', Accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const reader = response.body!.getReader();
    const gunzip = createGunzip();
    let text = '';
    gunzip.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const started = Date.now();
    while (!text.includes('data:0')) {
      const { value, done } = await reader.read();
      if (done) break;
      gunzip.write(value);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The first event arrives decoded well before the stream ends (3 events 200 ms apart).
    expect(text).toContain('data:0');
    expect(Date.now() - started).toBeLessThan(450);
    await reader.cancel();
  });

  it('leaves a default event stream uncompressed: text/event-stream is not in the list', async () => {
    const response = await call(buildApp([Events], enabled), '/events/plain', {
      headers: { 'Accept-Encoding': 'gzip', Accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toContain('data:1');
  });
});
