// A Location built from the request's own path keeps its escapes: the builder decoded the path once before filling
// its variables, so `/files/100%25` gave `/files/100%/7` (no URL a client can follow) and `/files/%25E0` named
// `/files/%E0`, another resource.
import { Context, Path, POST, RestApplication, RestPath, RestResponse, UriBuilder, UriInfo } from '../../lib';

@Path('files/{name}')
class FileResource {
  @POST
  create(@RestPath() name: string, @Context() uriInfo: UriInfo): RestResponse<never> {
    return RestResponse.created(
      uriInfo.absolutePathBuilder().path('{id}').build(`${name.length}`),
    ) as RestResponse<never>;
  }
}

const app = RestApplication.build({ classes: [FileResource] });

describe('UriBuilder', () => {
  it('fills the variables of a path whose escapes it keeps as sent', async () => {
    for (const [sent, location] of [
      ['/files/100%25', 'http://localhost/files/100%25/4'],
      ['/files/%25E0', 'http://localhost/files/%25E0/3'],
      ['/files/caf%C3%A9', 'http://localhost/files/caf%C3%A9/4'],
    ]) {
      const res = await app.fetch(new Request(`http://localhost${sent}`, { method: 'POST' }));
      expect([res.status, res.headers.get('location')]).toEqual([201, location]);
    }
  });

  it('fills each {name} with its value encoded, and leaves one without a value', () => {
    const builder = new UriBuilder('http://h/a%7Bb/').path('{id}/{part}/{rest}');
    expect(builder.build('x y', 'a/b').href).toBe('http://h/a%7Bb/x%20y/a%2Fb/%7Brest%7D');
  });
});
