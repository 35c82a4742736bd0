// Topics that only keep history make room for new ones, over a real socket against the samples (in memory, the
// default backend): a stranger who starts and finishes streams by the hundred (the samples' /jobs, each a topic
// whose history is kept for an hour) used to fill framework.broadcast.max-topics with finished streams, and then every
// broadcast of the process (the chat) answered 503 for an hour. Past max-topics, the topic nobody reads whose newest
// event is the oldest is let go now (its history here dropped); a stream let go so answers 404, never a stream that
// hangs; only topics with a subscriber (or a stream running here) fill the limit, and then a new topic is refused.
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { openSse } from '../support/sse-client';

const MAX_TOPICS = 5;

let server: RunningServer;
beforeAll(async () => {
  server = await buildSamples({
    'framework.rest.sse.keep-alive': '0',
    'framework.broadcast.max-topics': MAX_TOPICS,
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

/** Starts a job of one step and waits for its end: a finished stream whose history the process keeps. */
async function finishedJob(): Promise<string> {
  const started = await fetch(`${server.url}/jobs?steps=1&interval=0`, { method: 'POST' });
  expect(started.status).toBe(202);
  const events = `${server.url}${started.headers.get('location')}/events`;
  const stream = await openSse(events);
  await stream.ended;
  expect(stream.events.map((event) => event.event ?? event.data)).toEqual(['{"step":1}', 'done']);
  return events;
}

const chat = (text: string) =>
  fetch(`${server.url}/chat/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'ada', text }),
  });

describe('topics past framework.broadcast.max-topics', () => {
  it('let go of finished streams nobody reads, oldest first, so that the chat still publishes', async () => {
    const jobs: string[] = [];
    for (let n = 0; n < 3 * MAX_TOPICS; n++) jobs.push(await finishedJob());
    const published = await chat('still here');
    expect([published.status, published.status === 202 ? '' : await published.text()]).toEqual([202, '']);
    // The newest streams are still kept whole; the oldest were let go, and say so (404), not a stream that hangs.
    const newest = await openSse(jobs.at(-1)!);
    await newest.ended;
    expect(newest.events.map((event) => event.event ?? event.data)).toEqual(['{"step":1}', 'done']);
    const oldest = await fetch(jobs[0]!, { headers: { accept: 'text/event-stream' } });
    expect([oldest.status, ((await oldest.json()) as { code: string }).code]).toEqual([404, 'RXREST_STREAM_NOT_FOUND']);
  });

  it('never let go of a topic someone reads: one more than max-topics read at once is refused (503)', async () => {
    // Five topics read: the chat's, and four running jobs'.
    const stream = await openSse(`${server.url}/chat/stream`);
    expect(stream.status).toBe(200);
    const running = [];
    for (let n = 0; n < MAX_TOPICS - 1; n++) {
      const started = await fetch(`${server.url}/jobs?steps=100000&interval=1000`, { method: 'POST' });
      expect(started.status).toBe(202);
      running.push(await openSse(`${server.url}${started.headers.get('location')}/events`));
    }
    expect(running.map((reader) => reader.status)).toEqual(new Array(MAX_TOPICS - 1).fill(200));
    const refused = await fetch(`${server.url}/jobs?steps=1&interval=0`, { method: 'POST' });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      503,
      'RXREST_BROADCAST_TOO_MANY_TOPICS',
    ]);
    // The chat, read, was not let go: its message reaches its reader.
    expect((await chat('to the reader')).status).toBe(202);
    await stream.until((events) => events.length >= 1);
    expect(JSON.parse(stream.events[0]!.data)).toEqual({ user: 'ada', text: 'to the reader' });
    stream.cut();
    for (const reader of running) reader.cut();
  });
});
