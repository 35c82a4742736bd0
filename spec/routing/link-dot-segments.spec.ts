// A slug from data of `..`, `.` or nothing filled into a link template was a step of the path: the `self` link of a
// record with slug `..` named the collection's parent, and a Location built with `.path('{slug}')` the server root.
// Encoding the dots is no remedy (`%2E%2E` is `..` to every URL parser): the variable stays `{name}`, as for a value
// that is missing.
import {
  Context,
  GET,
  InjectRestLinks,
  Path,
  POST,
  RestApplication,
  RestLink,
  RestLinkType,
  RestPath,
  RestQuery,
  RestResponse,
  UriBuilder,
  UriInfo,
} from '../../lib';

class Page {
  constructor(readonly slug: string) {}
}

@Path('pages')
class PageResource {
  @GET
  @Path('{slug}/view')
  @RestLink({ rel: 'self' })
  @InjectRestLinks(RestLinkType.INSTANCE)
  one(@RestPath() slug: string): Page {
    return new Page(slug === 'up' ? '..' : slug === 'here' ? '.' : slug === 'none' ? '' : `${slug}..`);
  }

  @POST
  create(@RestQuery() slug: string, @Context() uriInfo: UriInfo): RestResponse<never> {
    return RestResponse.created(uriInfo.absolutePathBuilder().path('{slug}').build(slug)) as RestResponse<never>;
  }
}

const app = RestApplication.build({ classes: [PageResource] });

describe('link templates filled with a dot segment', () => {
  it('leave {slug} in a Link header when the value is .., . or empty', async () => {
    for (const [asked, link] of [
      ['up', '<http://localhost/pages/{slug}/view>; rel="self"'],
      ['here', '<http://localhost/pages/{slug}/view>; rel="self"'],
      ['none', '<http://localhost/pages/{slug}/view>; rel="self"'],
      ['a', '<http://localhost/pages/a../view>; rel="self"'],
    ]) {
      const response = await app.fetch(new Request(`http://localhost/pages/${asked}/view`));
      expect([response.status, response.headers.get('link')]).toEqual([200, link]);
    }
  });

  it('leave {slug} in a Location built by UriBuilder when the value is .., . or empty', async () => {
    for (const [slug, location] of [
      ['..', 'http://localhost/pages/%7Bslug%7D'],
      ['.', 'http://localhost/pages/%7Bslug%7D'],
      ['', 'http://localhost/pages/%7Bslug%7D'],
      ['...', 'http://localhost/pages/...'],
    ]) {
      const response = await app.fetch(
        new Request(`http://localhost/pages?slug=${encodeURIComponent(slug)}`, { method: 'POST' }),
      );
      expect([response.status, response.headers.get('location')]).toEqual([201, location]);
    }
  });

  it('fill a value of dots that is only part of a segment', () => {
    expect(new UriBuilder('http://h/v{n}/{m}.json').build('..', '.').href).toBe('http://h/v../..json');
  });
});
