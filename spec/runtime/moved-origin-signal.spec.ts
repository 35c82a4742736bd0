// A request moved onto the public origin is made again without the signal of the one `fetch` was given (copying it
// would read Deno's legacy signal): a caller in process that aborts the signal it passed still ends the stream.
import { buildContractApp } from './fixtures/contract-app';
import { until } from '../support/until';

const app = buildContractApp({ 'framework.http.public-base-url': 'https://api.example.com' });
afterAll(() => app.close());

async function openStreams(): Promise<number> {
  const answer = await app.fetch(new Request('http://localhost/contract/open'));
  return ((await answer.json()) as { open: number }).open;
}

describe('a request moved onto the public origin, in process', () => {
  it('ends its stream, clean-up run, when the signal the caller passed aborts', async () => {
    const leaving = new AbortController();
    const answer = await app.fetch(
      new Request('http://localhost/contract/endless', {
        headers: { accept: 'text/event-stream' },
        signal: leaving.signal,
      }),
    );
    const reader = answer.body!.getReader();
    await reader.read();
    expect(await openStreams()).toBe(1);
    leaving.abort();
    await until(
      async () => ((await openStreams()) === 0 ? true : undefined),
      'the stream to end on the abort',
      10_000,
      50,
    );
  });
});
