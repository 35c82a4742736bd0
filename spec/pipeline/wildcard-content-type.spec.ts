// A wildcard @Produces ('*/*', 'text/*') takes its type from the Accept range it meets, but the range's parameters
// are the client's wishes, not facts of the answer: `Accept: text/plain;foo=bar` got `Content-Type:
// text/plain;foo=bar;charset=UTF-8`, and `text/html;charset=utf-7` a UTF-8 body labelled UTF-7 (a browser reading it
// so can be made to run script). The answer names the type, its @Produces entry's parameters and the charset it is
// written in.
import { GET, Path, Produces, RestApplication, type RunningServer } from '../../lib';
import { send } from '../support/http';
import { within } from '../support/until';

@Path('any')
class Anything {
  @GET @Produces('*/*') any(): string {
    return 'café';
  }
  @GET @Path('text') @Produces('text/*') text(): string {
    return 'café';
  }
  @GET @Path('flowed') @Produces('text/*;format=flowed') flowed(): string {
    return 'café';
  }
}

describe('a wildcard @Produces', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await RestApplication.build({ classes: [Anything] }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => server.close());

  const contentType = async (path: string, accept: string) => {
    const reply = await within(send(`${server.url}${path}`, 'GET', { accept }), `GET ${path} (${accept})`);
    expect([reply.status, reply.body]).toEqual([200, 'café']);
    return reply.headers['content-type'];
  };

  it('answers the type of the range it meets, without the range parameters, weight or extensions', async () => {
    const cases: [string, string, string][] = [
      ['/any', 'text/plain;q=0.5;foo=bar', 'text/plain;charset=UTF-8'],
      ['/any', 'text/plain;foo=bar;q=0.5', 'text/plain;charset=UTF-8'],
      ['/any', 'application/json;x=y', 'application/json;charset=UTF-8'],
      ['/any/text', 'text/html;level=1;q=0.9', 'text/html;charset=UTF-8'],
      ['/any/text', 'text/csv;header=present, text/plain;q=0.1', 'text/csv;charset=UTF-8'],
    ];
    for (const [path, accept, expected] of cases)
      expect([path, accept, await contentType(path, accept)]).toEqual([path, accept, expected]);
  });

  it('names the charset the body is written in, never the one the client asked for', async () => {
    expect(await contentType('/any/text', 'text/html;charset=utf-7')).toBe('text/html;charset=UTF-8');
    expect(await contentType('/any', 'text/plain;charset=iso-8859-1')).toBe('text/plain;charset=UTF-8');
  });

  it('keeps the parameters of its own @Produces entry, which a range naming another value does not admit', async () => {
    expect(await contentType('/any/flowed', 'text/plain')).toBe('text/plain;format=flowed;charset=UTF-8');
    const refused = await within(
      send(`${server.url}/any/flowed`, 'GET', { accept: 'text/plain;format=fixed' }),
      'the refused format',
    );
    expect(refused.status).toBe(406);
  });
});
