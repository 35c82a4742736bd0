// On Deno, the Host guard looks at the Host only where Deno made the URL of it: `app.fetch` called in process (or an
// absolute-form target, whose URL the parser made) is not refused for a Host that differs from its URL's authority.
import { servedUrlGuard } from '../../lib/server/served-url';

describe('servedUrlGuard on Deno', () => {
  const guarded = servedUrlGuard(() => new Response('served'), true, 'deno');

  it("serves a Request made in process whose Host is not its URL's (a gateway forwarding the client's headers)", async () => {
    const forwarded = new Request('http://internal:8000/fruits', { headers: { host: 'public.example.com' } });
    const answer = await guarded(forwarded);
    expect([answer.status, await answer.text()]).toEqual([200, 'served']);
  });
});
