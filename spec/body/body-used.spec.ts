// A body the application itself consumed before its resource reads it is the application's bug (500 at ERROR), not a
// client that left (499 at DEBUG), which a failed read of the runtime's own body is taken for.
import { count, lastValueFrom } from 'rxjs';
import { Body, Consumes, Multi, Path, POST, RequestContext, RestApplication, ServerRequestFilter } from '../../lib';

@Path('/echo')
class EchoResource {
  @POST
  @Consumes('text/plain')
  echo(body: string): string {
    return body;
  }

  @POST
  @Path('items')
  @Consumes('application/x-ndjson')
  async items(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return { count: await lastValueFrom(rows.pipe(count())) };
  }
}

/** An application's own bug: it reads the Web request's body before the resource does. */
class BodyReader {
  @ServerRequestFilter()
  async peek(ctx: RequestContext): Promise<void> {
    await ctx.request.text();
  }
}

describe('a body already read by the application (its own bug), in process', () => {
  const app = RestApplication.build({ classes: [EchoResource, BodyReader], overrides: { 'framework.http.port': 0 } });
  const post = (path: string, type: string, body: string) =>
    app.fetch(new Request(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-type': type } }));

  it('read whole: is not answered as a client that left', async () => {
    expect((await post('/echo', 'text/plain', 'hello')).status).toBe(500);
  });

  it('read as items: is not answered as a client that left', async () => {
    expect((await post('/echo/items', 'application/x-ndjson', '1\n2\n')).status).toBe(500);
  });
});
