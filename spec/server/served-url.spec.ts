// On Deno, the Host guard looks at the Host only where Deno made the URL of it: `app.fetch` called in process (or an
// absolute-form target, whose URL the parser made) is not refused for a Host that differs from its URL's authority.
import { servedUrlGuard, unservedUrlReason } from '../../lib/server/served-url';

describe('servedUrlGuard on Deno', () => {
  const guarded = servedUrlGuard(() => new Response('served'), true, 'deno');

  it("serves a Request made in process whose Host is not its URL's (a gateway forwarding the client's headers)", async () => {
    const forwarded = new Request('http://internal:8000/fruits', { headers: { host: 'public.example.com' } });
    const answer = await guarded(forwarded);
    expect([answer.status, await answer.text()]).toEqual([200, 'served']);
  });
});

describe('servedUrlGuard on Bun', () => {
  // The guard lets a URL through without reading it again when it begins as the last one let through did; what it
  // lets through so must be what reading it would: a host that merely begins like the last one is read whole.
  it('gives every URL the verdict reading it gives, whatever came before it', async () => {
    const guarded = servedUrlGuard(() => new Response('served'), true, 'bun');
    const urls = [
      'http://localhost:8080/fruits',
      'http://localhost:8080/fruits?x=1',
      'http://localhost:8080%40x/fruits',
      'http://localhost:80800/fruits',
      '/fruits',
      'http://localhost:8080/',
      'http://localhost:8080@x/fruits',
    ];
    const verdicts = [];
    for (const url of urls) {
      const request = { url } as Request;
      const answer = await guarded(request);
      verdicts.push([url, answer.status, unservedUrlReason(request, 'bun') === undefined ? 200 : 400]);
    }
    expect(verdicts.map(([url, status]) => [url, status])).toEqual(verdicts.map(([url, , read]) => [url, read]));
    expect(verdicts.filter(([, status]) => status === 400).length).toBeGreaterThan(0);
  });
});
