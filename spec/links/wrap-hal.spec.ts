import {
  GET,
  InjectRestLinks,
  Path,
  Produces,
  RestApplication,
  RestLink,
  RestLinkType,
  RestMediaType,
  RestPath,
  RestResponse,
  resolveConfig,
} from '../../lib';
import { isHalMediaType } from '../../lib/links/wrap-hal';
import { RecordResource } from '../../samples/records/record-resource';

const HAL = 'application/hal+json';

class Note {
  constructor(
    readonly id: number,
    readonly text: string | null,
  ) {}
}

@Path('notes')
@Produces('application/json', RestMediaType.APPLICATION_HAL_JSON)
class NoteResource {
  @GET
  @Path('{id}')
  @RestLink({ rel: 'self', title: 'The note', type: 'application/json' })
  @InjectRestLinks(RestLinkType.INSTANCE)
  one(@RestPath() id: string): Note {
    return new Note(Number(id), null);
  }

  @GET
  @Path('text')
  @InjectRestLinks()
  text(): string {
    return 'just text';
  }

  @GET
  @Path('created')
  @InjectRestLinks(RestLinkType.INSTANCE)
  created(): RestResponse<Note> {
    return RestResponse.status(202, new Note(5, 'later'));
  }

  @GET
  @Path('failed')
  @InjectRestLinks(RestLinkType.INSTANCE)
  failed(): RestResponse<Note> {
    return RestResponse.status(409, new Note(6, 'clash'));
  }

  @GET
  @Path('empty')
  @RestLink({ rel: 'empty-list', entityType: Note })
  @InjectRestLinks()
  empty(): Note[] {
    return [];
  }
}

const app = RestApplication.build({
  classes: [RecordResource, NoteResource],
  config: resolveConfig({ overrides: {} }),
});

async function call(path: string, accept: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await app.fetch(new Request(`http://localhost:8081${path}`, { headers: { accept } }));
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

const record = (id: number, slug: string, value: string) => ({
  id,
  slug,
  value,
  _links: {
    list: { href: 'http://localhost:8081/records' },
    self: { href: `http://localhost:8081/records/${id}` },
    update: { href: `http://localhost:8081/records/${id}` },
    delete: { href: `http://localhost:8081/records/${id}` },
  },
});

describe('wrapHal', () => {
  it('answers a list as a HAL collection of items, each with its own links', async () => {
    const answer = await call('/records', HAL);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/hal+json;charset=UTF-8');
    expect(answer.body).toEqual({
      _embedded: { items: [record(1, 'first', 'First value'), record(2, 'second', 'Second value')] },
      _links: { list: { href: 'http://localhost:8081/records' } },
    });
  });

  it('answers an entity as its fields followed by _links', async () => {
    const answer = await call('/records/1', HAL);
    expect(answer.body).toEqual(record(1, 'first', 'First value'));
    expect(Object.keys(answer.body as object)).toEqual(['id', 'slug', 'value', '_links']);
  });

  it('answers plain JSON to application/json', async () => {
    expect((await call('/records', 'application/json')).body).toEqual([
      { id: 1, slug: 'first', value: 'First value' },
      { id: 2, slug: 'second', value: 'Second value' },
    ]);
    const one = await call('/records/2', 'application/json');
    expect(one.type).toBe('application/json;charset=UTF-8');
    expect(one.body).toEqual({ id: 2, slug: 'second', value: 'Second value' });
  });

  it('writes nulls and the title and type of links', async () => {
    expect((await call('/notes/3', HAL)).body).toEqual({
      id: 3,
      text: null,
      _links: {
        self: { href: 'http://localhost:8081/notes/3', title: 'The note', type: 'application/json' },
        'empty-list': { href: 'http://localhost:8081/notes/empty' },
      },
    });
  });

  it('wraps other 2xx statuses but never errors', async () => {
    const accepted = await call('/notes/created', HAL);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      id: 5,
      text: 'later',
      _links: { self: { href: 'http://localhost:8081/notes/5', title: 'The note', type: 'application/json' } },
    });
    expect((await call('/notes/failed', HAL)).body).toEqual({ id: 6, text: 'clash' });
    const missing = await call('/records/nope', HAL);
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).not.toContain('_links');
  });

  it('leaves strings alone', async () => {
    const response = await app.fetch(new Request('http://localhost:8081/notes/text', { headers: { accept: HAL } }));
    expect(await response.text()).toBe('just text');
  });

  it('answers an empty list as an empty collection with its type links', async () => {
    expect((await call('/notes/empty', HAL)).body).toEqual({
      _embedded: { items: [] },
      _links: { 'empty-list': { href: 'http://localhost:8081/notes/empty' } },
    });
  });
});

describe('isHalMediaType', () => {
  it('matches application/hal+json with or without parameters, case-insensitively', () => {
    expect(isHalMediaType('application/hal+json')).toBe(true);
    expect(isHalMediaType('Application/HAL+JSON; charset=UTF-8')).toBe(true);
    expect(isHalMediaType('application/json')).toBe(false);
    expect(isHalMediaType(undefined)).toBe(false);
    expect(isHalMediaType('not a type')).toBe(false);
  });
});
