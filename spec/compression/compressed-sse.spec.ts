import { constants, gunzipSync } from 'node:zlib';
import { interval, map, take, tap } from 'rxjs';
import { Compressed, GET, multi, Path, Produces, type Multi } from '../../lib';
import { buildApp, call } from '../support/app';

/** Events the zipped stream has produced so far. */
let produced = 0;

@Path('events')
class Events {
  @GET
  @Path('zipped')
  @Compressed
  @Produces('text/event-stream')
  zipped(): Multi<string> {
    return multi(
      interval(200).pipe(
        take(3),
        map(String),
        tap(() => produced++),
      ),
    );
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
    produced = 0;
    const response = await call(buildApp([Events], enabled), '/events/zipped', {
      headers: { 'Accept-Encoding': 'gzip', Accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const reader = response.body!.getReader();
    // Everything received so far, decoded at once (a truncated gzip stream, flushed as far as it goes).
    let received = Buffer.alloc(0);
    const decoded = () => gunzipSync(received, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    while (!decoded().includes('data:0')) {
      const { value, done } = await reader.read();
      if (done) break;
      received = Buffer.concat([received, value]);
    }
    // The first event is decoded before the second is produced (200 ms later): none waits in the gzip for the next
    // write or the end. Counted, not timed, so a loaded machine's late timers move both alike.
    expect(decoded()).toContain('data:0');
    expect(produced).toBe(1);
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
