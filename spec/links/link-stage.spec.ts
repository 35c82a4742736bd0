import {
  Context,
  DefinitionError,
  DELETE,
  GET,
  InjectRestLinks,
  Path,
  Produces,
  RestApplication,
  RestLink,
  RestLinkType,
  RestLinksProvider,
  RestPath,
  RestResponse,
  resolveConfig,
  type RestApp,
} from '../../lib';
import { RecordResource } from '../../samples/records/record-resource';

class Article {
  constructor(
    readonly id: number,
    readonly slug: string,
  ) {}
}

@Path('articles')
class ArticleResource {
  readonly #articles = [new Article(1, 'intro'), new Article(2, 'outro')];

  @GET
  @RestLink({ entityType: Article })
  @InjectRestLinks()
  all(): Article[] {
    return this.#articles;
  }

  @GET
  @Path('{id}')
  @RestLink({ rel: 'self', title: 'The article', type: 'application/json' })
  @InjectRestLinks(RestLinkType.INSTANCE)
  one(@RestPath() id: string): Article {
    return this.#articles[Number(id) - 1];
  }

  @GET
  @Path('{id}/brief')
  @InjectRestLinks()
  brief(@RestPath() id: string): Article {
    return this.#articles[Number(id) - 1];
  }

  @GET
  @Path('by-slug/{slug}')
  @RestLink({ rel: 'by-slug' })
  bySlug(@RestPath() slug: string): Article {
    return this.#articles.find((a) => a.slug === slug) ?? this.#articles[0];
  }

  @GET
  @Path('orphans/{missing}')
  @RestLink({ rel: 'orphan', entityType: Article })
  orphan(): string {
    return 'none';
  }

  @GET
  @Path('built')
  built(): RestResponse<string> {
    return RestResponse.ResponseBuilder.ok('x', 'text/plain')
      .link('http://elsewhere/a', 'alternate', { title: 'A "quoted" one' })
      .link('/b', 'next')
      .build();
  }

  @GET
  @Path('provided')
  @Produces('application/json')
  provided(@Context() links: RestLinksProvider): { type: string[]; instance: string[] } {
    return {
      type: links.getTypeLinks(Article).map((l) => l.rel),
      instance: links.getInstanceLinks(new Article(9, 'nine')).map((l) => l.href),
    };
  }

  @DELETE
  @Path('{id}')
  @RestLink({ entityType: Article })
  remove(): void {}
}

function build(classes: Function[], overrides: Record<string, string> = {}): RestApp {
  return RestApplication.build({ classes, config: resolveConfig({ overrides }) });
}

async function linksOf(app: RestApp, path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await app.fetch(new Request(`http://localhost:8080${path}`, { headers }));
  // formatLink writes each link as `<href>; rel="rel"`, then its other parameters.
  const links = (response.headers.get('link') ?? '').matchAll(/<([^>]*)>; rel="([^"]*)"/g);
  return [...links].map(([, href, rel]) => `${rel} ${href}`);
}

describe('linkStage', () => {
  const app = build([ArticleResource]);

  it('gives a list only the type links, rel defaulting to the method name', async () => {
    expect(await linksOf(app, '/articles')).toEqual(['all http://localhost:8080/articles']);
  });

  it('gives an instance every link of its type in declaration order, filled from the entity', async () => {
    expect(await linksOf(app, '/articles/2')).toEqual([
      'all http://localhost:8080/articles',
      'self http://localhost:8080/articles/2',
      'by-slug http://localhost:8080/articles/by-slug/outro',
      'orphan http://localhost:8080/articles/orphans/{missing}',
      'remove http://localhost:8080/articles/2',
    ]);
  });

  it('writes title and type parameters quoted, after rel', async () => {
    const response = await app.fetch(new Request('http://localhost:8080/articles/1'));
    expect(response.headers.get('link')).toContain(
      '<http://localhost:8080/articles/1>; rel="self"; title="The article"; type="application/json"',
    );
  });

  it('gives an instance only the type links under the default RestLinkType.TYPE', async () => {
    expect(await linksOf(app, '/articles/1/brief')).toEqual(['all http://localhost:8080/articles']);
  });

  it('adds nothing to a link target without @InjectRestLinks', async () => {
    const response = await app.fetch(new Request('http://localhost:8080/articles/by-slug/intro'));
    expect(response.status).toBe(200);
    expect(response.headers.has('link')).toBe(false);
  });

  it('keeps links a RestResponse builder added, escaping quotes', async () => {
    const response = await app.fetch(new Request('http://localhost:8080/articles/built'));
    expect(response.headers.get('link')).toBe(
      '<http://elsewhere/a>; rel="alternate"; title="A \\"quoted\\" one", </b>; rel="next"',
    );
  });

  it('injects a RestLinksProvider answering type and instance links', async () => {
    const response = await app.fetch(new Request('http://localhost:8080/articles/provided'));
    expect(await response.json()).toEqual({
      type: ['all'],
      instance: [
        'http://localhost:8080/articles',
        'http://localhost:8080/articles/9',
        'http://localhost:8080/articles/by-slug/nine',
        'http://localhost:8080/articles/orphans/{missing}',
        'http://localhost:8080/articles/9',
      ],
    });
  });

  it('ignores forwarding headers in process, proxy-address-forwarding on or off (no peer tells a proxy from a client)', async () => {
    const headers = { forwarded: 'proto=https;host=public.example', 'x-forwarded-host': 'other.example' };
    expect(await linksOf(app, '/articles', headers)).toEqual(['all http://localhost:8080/articles']);
    const trusting = build([ArticleResource], { 'framework.http.proxy.proxy-address-forwarding': 'true' });
    expect(await linksOf(trusting, '/articles', headers)).toEqual(['all http://localhost:8080/articles']);
  });

  it('prefixes links with the application path', async () => {
    const rooted = build([ArticleResource], { 'framework.rest.path': '/api' });
    expect(await linksOf(rooted, '/api/articles')).toEqual(['all http://localhost:8080/api/articles']);
  });

  it('adds no links to errors the method throws', async () => {
    const samples = build([RecordResource]);
    const response = await samples.fetch(new Request('http://localhost/records/99'));
    expect(response.status).toBe(404);
    expect(response.headers.has('link')).toBe(false);
  });
});

describe('collectLinkTargets', () => {
  it('stops the build when neither the return type nor entityType names the entity', () => {
    @Path('broken')
    class BrokenResource {
      @GET
      @RestLink({ rel: 'list' })
      list(): Article[] {
        return [];
      }
    }
    expect(() => build([BrokenResource])).toThrow(DefinitionError);
    expect(() => build([BrokenResource])).toThrow(/BrokenResource#list: @RestLink needs an entity type/);
  });

  it('stops the build when a link target is not an endpoint', () => {
    @Path('odd')
    class OddResource {
      @GET
      ok(): string {
        return 'ok';
      }

      @RestLink({ entityType: Article })
      helper(): void {}
    }
    expect(() => build([OddResource])).toThrow(/OddResource#helper: @RestLink marks a method without an HTTP method/);
  });
});
