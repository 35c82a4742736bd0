// Resumable streams on the in-memory backend, over a real socket (the samples' /jobs) and through the API: a job
// runs once whatever its clients do, a client that comes back gets the steps after its Last-Event-ID and the end,
// then 204; the job stops one grace after its last reader left (or after its start, when nobody came); a source
// that fails ends with event: error.
import { concat, defer, finalize, interval, of, Subject, take, throwError } from 'rxjs';
import { resumable, resume, type RunningServer, type SseEvent } from '../../lib';
import { buildSamples } from '../../samples/app';
import { openSse, type SseMessage } from '../support/sse-client';

let server: RunningServer;
beforeAll(async () => {
  server = await buildSamples({ 'framework.rest.sse.keep-alive': '0' }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const steps = (events: readonly SseMessage[]) =>
  events.filter((event) => event.event === undefined).map((event) => (JSON.parse(event.data) as { step: number }).step);
const timeOf = (event: SseMessage) => Number(event.id!.split('-')[0]);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => n + from);

async function startJob(query: string): Promise<string> {
  const res = await fetch(`${server.url}/jobs?${query}`, { method: 'POST' });
  expect(res.status).toBe(202);
  expect(await res.text()).toBe('');
  return `${server.url}${res.headers.get('location')}/events`;
}

describe('resumable streams (samples /jobs, in memory)', () => {
  it('streams every step as an SSE event with an id, then event: done with the count', async () => {
    const events = await startJob('steps=30&interval=5');
    const stream = await openSse(events);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    await stream.ended;
    expect(steps(stream.events)).toEqual(range(1, 30));
    expect(stream.events.at(-1)).toEqual({
      id: expect.stringMatching(/^\d+-\d+$/),
      event: 'done',
      data: '{"items":30}',
    });
  });

  it('goes on without its client; a client coming back with Last-Event-ID gets the rest and the end, then 204', async () => {
    const events = await startJob('steps=40&interval=10');
    const first = await openSse(events);
    await first.until((received) => steps(received).includes(10));
    first.cut();
    const tenth = first.events.find((event) => event.data === '{"step":10}')!;
    await sleep(300);
    const again = await openSse(events, { 'last-event-id': tenth.id! });
    await again.ended;
    expect(steps(again.events)).toEqual(range(11, 40));
    expect(again.events.at(-1)!.event).toBe('done');
    const after = await fetch(events, { headers: { 'last-event-id': again.events.at(-1)!.id! } });
    expect(after.status).toBe(204);
    // A new client after the end gets the whole of it, from its first step.
    const late = await openSse(events);
    await late.ended;
    expect(steps(late.events)).toEqual(range(1, 40));
  });

  it('answers 404 problem JSON for a job it does not know, and 400 for a job without steps', async () => {
    const res = await fetch(`${server.url}/jobs/00000000-0000-0000-0000-000000000000/events`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { code: string }).code).toBe('RXREST_STREAM_NOT_FOUND');
    expect((await fetch(`${server.url}/jobs?interval=5`, { method: 'POST' })).status).toBe(400);
  });

  it('stops a job one grace after its last client left: the history ends with event: cancelled', async () => {
    const events = await startJob('steps=100000&interval=10&grace=300');
    const reader = await openSse(events);
    await reader.until((received) => steps(received).length >= 5);
    reader.cut();
    const lastSeen = reader.events.at(-1)!;
    // Past the grace (300 ms) and a check (75 ms), with room for a loaded machine's late timers: a reader coming back
    // before the job stopped would keep it running.
    await sleep(1500);
    const again = await openSse(events, { 'last-event-id': lastSeen.id! });
    await again.ended;
    const end = again.events.at(-1)!;
    expect(end.event).toBe('cancelled');
    // One grace (300 ms) after it left, give or take the producer's check (75 ms here) and a step; the upper bound
    // leaves room for a loaded machine's late timers (a job that never stopped would run for 1,000 s).
    expect(timeOf(end) - timeOf(lastSeen)).toBeGreaterThanOrEqual(250);
    expect(timeOf(end) - timeOf(lastSeen)).toBeLessThan(5000);
  });

  it('stops a job nobody ever read one grace after its start', async () => {
    const started = Date.now();
    // 5 s of steps: a reader that came before the cancel would see it end with done, not wait for ever. It comes 2.5 s
    // after the start, well past the grace (600 ms) and a check (150 ms) on a loaded machine.
    const events = await startJob('steps=500&interval=10&grace=600');
    await sleep(2500);
    const stream = await openSse(events);
    await stream.ended;
    expect(stream.events.at(-1)!.event).toBe('cancelled');
    // Not before one grace (600 ms, less 10 for timers' millisecond rounding): a job cancelled at once fails this
    // unless its POST took that long; nor after the reader came (its readers are checked every 150 ms; the rest is
    // room for a loaded machine's late timers).
    expect(timeOf(stream.events.at(-1)!) - started).toBeGreaterThanOrEqual(590);
    expect(timeOf(stream.events.at(-1)!) - started).toBeLessThan(2500);
  });
});

describe('resumable()', () => {
  it('runs the source once, however many clients read it, and ends with done', async () => {
    let subscriptions = 0;
    const counted = new Subject<number>();
    const job = await resumable(
      'api-once',
      defer(() => {
        subscriptions++;
        return counted.pipe(take(3));
      }),
    );
    const [a, b] = await Promise.all([resume('api-once'), resume('api-once')]);
    const seen: unknown[][] = [[], []];
    a!.subscribe((event) => seen[0]!.push(event.data));
    b!.subscribe((event) => seen[1]!.push(event.data));
    for (const n of [1, 2, 3]) counted.next(n);
    expect(await job.ended).toBe('done');
    expect(subscriptions).toBe(1);
    expect(seen[0]).toEqual([1, 2, 3, { items: 3 }]);
    expect(seen[1]).toEqual(seen[0]);
  });

  it('refuses a second stream with a running key, and a grace that is not a duration', async () => {
    const job = await resumable('api-twice', interval(10));
    await expect(resumable('api-twice', interval(10))).rejects.toThrow(
      "resumable('api-twice'): a stream with this key is already running in this process",
    );
    await expect(resumable('api-grace', of(1), { grace: 'soon' })).rejects.toThrow(RangeError);
    job.cancel();
    expect(await job.ended).toBe('cancelled');
  });

  it('ends with event: error when its source fails, after the items before the failure', async () => {
    const job = await resumable(
      'api-fails',
      concat(
        of('a', 'b'),
        throwError(() => new Error('disk full')),
      ),
    );
    expect(await job.ended).toBe('error');
    const events: SseEvent[] = [];
    await new Promise<void>((done) =>
      resume('api-fails').then((multi) => multi!.subscribe({ next: (event) => events.push(event), complete: done })),
    );
    expect(events).toEqual([
      expect.objectContaining({ data: 'a' }),
      expect.objectContaining({ data: 'b' }),
      expect.objectContaining({ event: 'error', data: { items: 2 } }),
    ]);
  });

  it('stops its source when cancelled', async () => {
    let stopped = false;
    const job = await resumable('api-cancel', interval(5).pipe(finalize(() => (stopped = true))));
    await sleep(30);
    job.cancel();
    expect(await job.ended).toBe('cancelled');
    expect(stopped).toBe(true);
  });
});
