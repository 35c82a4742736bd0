import { concat, interval, map, of, take, timer } from 'rxjs';
import { GET, HeaderParam, Path, Produces, multi, sseEvent, type Multi } from '../../lib';
import { formatSseData, formatSseEvent, isSseEvent, looksLikeSseEvent } from '../../lib/streaming/sse-event';
import { buildApp, call } from '../support/app';

@Path('sse')
class SseResource {
  /** Resumes after the `Last-Event-ID` a reconnecting EventSource sends. */
  @GET
  @Path('resume')
  @Produces('text/event-stream')
  resume(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<unknown> {
    const from = lastEventId === undefined ? 0 : Number(lastEventId) + 1;
    return multi(
      interval(0).pipe(
        take(3),
        map((i) => sseEvent({ id: String(from + i), data: `item ${from + i}` })),
      ),
    );
  }

  /** One item, then silent for a second, so keep-alive comments are due. */
  @GET
  @Path('quiet')
  @Produces('text/event-stream')
  quiet(): Multi<string> {
    return multi(concat(of('first'), timer(1000).pipe(map(() => 'done'))));
  }
}

describe('SSE end to end', () => {
  const app = buildApp([SseResource], { 'framework.rest.sse.keep-alive': '0' });

  it('reads Last-Event-ID as a header parameter', async () => {
    expect(await (await call(app, '/sse/resume')).text()).toBe(
      'id:0\ndata:item 0\n\nid:1\ndata:item 1\n\nid:2\ndata:item 2\n\n',
    );
    const resumed = await call(app, '/sse/resume', { headers: { 'last-event-id': '41' } });
    expect(await resumed.text()).toBe('id:42\ndata:item 42\n\nid:43\ndata:item 43\n\nid:44\ndata:item 44\n\n');
  });

  it('sends keep-alive comments every framework.rest.sse.keep-alive while the source is silent', async () => {
    const talking = buildApp([SseResource], { 'framework.rest.sse.keep-alive': '20ms' });
    const text = await (await call(talking, '/sse/quiet')).text();
    expect(text.startsWith('data:first\n\n')).toBe(true);
    expect(text.endsWith('data:done\n\n')).toBe(true);
    const comments = text.slice('data:first\n\n'.length, -'data:done\n\n'.length);
    expect(comments).toMatch(/^(:\n\n)+$/);
    // A second of silence at one comment per 20 ms is 49 or 50. A fifth of them allows for timers late on a machine
    // so busy that a 300 ms silence once saw a single comment; a stream sending them at any other pace (the 30 s
    // default, or a busy loop) falls outside.
    expect(comments.length / 3).toBeGreaterThanOrEqual(10);
    expect(comments.length / 3).toBeLessThanOrEqual(50);
  });

  it('sends no keep-alive comment when the setting is 0', async () => {
    expect(await (await call(app, '/sse/quiet')).text()).toBe('data:first\n\ndata:done\n\n');
  });
});

describe('formatSseEvent', () => {
  it('writes comment, id, event, retry and data fields in order, one data line per line', () => {
    expect(formatSseEvent({ comment: 'c', id: '7', event: 'e', retry: 100, data: 'x' }, 'a\r\nb\rc\nd')).toBe(
      ':c\nid:7\nevent:e\nretry:100\ndata:a\ndata:b\ndata:c\ndata:d\n\n',
    );
  });

  it('strips line breaks from id and event so a value cannot start a new field', () => {
    expect(formatSseEvent({ id: '1\ndata:evil', event: 'x\r\ny' }, undefined)).toBe('id:1data:evil\nevent:xy\n\n');
  });

  it('skips an invalid retry and writes nothing for an empty event', () => {
    expect(formatSseEvent({ retry: -1 }, undefined)).toBe('');
    expect(formatSseEvent({ retry: 1.5 }, 'x')).toBe('data:x\n\n');
  });
});

describe('formatSseData', () => {
  it('writes an empty payload as one empty data line', () => {
    expect(formatSseData('')).toBe('data:\n\n');
    expect(formatSseData('a\n')).toBe('data:a\ndata:\n\n');
  });
});

describe('looksLikeSseEvent', () => {
  it('accepts plain objects of event fields with data or comment only', () => {
    expect(looksLikeSseEvent({ data: 1, id: 'x' })).toBe(true);
    expect(looksLikeSseEvent({ comment: 'hi' })).toBe(true);
    expect(looksLikeSseEvent({ id: 'x' })).toBe(false);
    expect(looksLikeSseEvent({ data: 1, name: 'x' })).toBe(false);
    expect(looksLikeSseEvent([])).toBe(false);
    expect(
      looksLikeSseEvent(
        new (class {
          data = 1;
        })(),
      ),
    ).toBe(false);
    expect(isSseEvent(sseEvent({ id: 'x' }))).toBe(true);
    expect(isSseEvent({ data: 1 })).toBe(false);
  });
});
