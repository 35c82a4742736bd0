import {
  Context,
  GET,
  HalCollectionWrapper,
  HalEntityWrapper,
  HalService,
  InjectRestLinks,
  Path,
  Produces,
  RestApplication,
  RestLink,
  RestLinkType,
  RestMediaType,
  RestPath,
  resolveConfig,
} from '../../lib';
import { RecordResource } from '../../samples/records/record-resource';

class Item {
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}
}

@Path('hal')
@Produces('application/json', RestMediaType.APPLICATION_HAL_JSON)
class ItemResource {
  readonly items = [new Item(1, 'one'), new Item(2, 'two')];

  @GET
  @RestLink({ rel: 'list', entityType: Item })
  wrapped(hal: HalService): HalCollectionWrapper<Item> {
    return hal
      .toHalCollectionWrapper(this.items, 'collectionName', Item)
      .addLinks({ href: '/hal/1', rel: 'first-record' });
  }

  @GET
  @Path('{id}')
  @RestLink({ rel: 'self', entityType: Item })
  @InjectRestLinks(RestLinkType.INSTANCE)
  one(@RestPath() id: string, @Context() hal: HalService): HalEntityWrapper<Item> {
    return hal.toHalWrapper(this.items[Number(id) - 1]).addLinks({ href: `/hal/${id}/parent`, rel: 'parent-record' });
  }

  @GET
  @Path('plain')
  plain(hal: HalService): HalEntityWrapper<object> {
    return hal.toHalWrapper({ id: 2, name: 'literal' }, Item);
  }
}

const app = RestApplication.build({
  classes: [ItemResource, RecordResource],
  config: resolveConfig({ overrides: {} }),
});

async function json(path: string, accept = 'application/hal+json'): Promise<Record<string, unknown>> {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: { accept } }));
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('HalService', () => {
  it('wraps a collection under the chosen name, items with instance links, added links made absolute', async () => {
    expect(await json('/hal')).toEqual({
      _embedded: {
        collectionName: [
          {
            id: 1,
            name: 'one',
            _links: { list: { href: 'http://localhost/hal' }, self: { href: 'http://localhost/hal/1' } },
          },
          {
            id: 2,
            name: 'two',
            _links: { list: { href: 'http://localhost/hal' }, self: { href: 'http://localhost/hal/2' } },
          },
        ],
      },
      _links: { list: { href: 'http://localhost/hal' }, 'first-record': { href: 'http://localhost/hal/1' } },
    });
  });

  it('writes a returned wrapper as HAL also to application/json', async () => {
    const body = await json('/hal', 'application/json');
    expect(Object.keys(body)).toEqual(['_embedded', '_links']);
  });

  it('wraps an entity with its instance links plus added ones, without wrapping it twice', async () => {
    expect(await json('/hal/1')).toEqual({
      id: 1,
      name: 'one',
      _links: {
        list: { href: 'http://localhost/hal' },
        self: { href: 'http://localhost/hal/1' },
        'parent-record': { href: 'http://localhost/hal/1/parent' },
      },
    });
  });

  it('takes the given type for plain objects', async () => {
    expect((await json('/hal/plain'))._links).toEqual({
      list: { href: 'http://localhost/hal' },
      self: { href: 'http://localhost/hal/2' },
    });
  });

  it('serves the records sample wrapper named records with a first-record link', async () => {
    const body = await json('/records/hal-wrapped');
    expect((body._embedded as Record<string, { id: number }[]>).records.map((r) => r.id)).toEqual([1, 2]);
    expect(body._links).toEqual({
      list: { href: 'http://localhost/records' },
      'first-record': { href: 'http://localhost/records/1' },
    });
  });
});

describe('collectLinkTargets with HAL wrappers', () => {
  it('does not take a HAL wrapper return type for the entity type', () => {
    @Path('wrapped')
    class WrappedResource {
      @GET
      @RestLink({ rel: 'self' })
      one(hal: HalService): HalEntityWrapper<Item> {
        return hal.toHalWrapper(new Item(1, 'x'));
      }
    }
    expect(() =>
      RestApplication.build({ classes: [WrappedResource], config: resolveConfig({ overrides: {} }) }),
    ).toThrow(/WrappedResource#one: @RestLink needs an entity type/);
  });
});

describe('HalEntityWrapper', () => {
  it('keeps hrefs as given and carries title and type', () => {
    const wrapper = new HalEntityWrapper(
      { id: 1 },
      { href: '/all', rel: 'all', title: 'All', type: 'application/json' },
    );
    expect(wrapper.addLinks({ href: 'rel/x', rel: 'x' }).toJSON()).toEqual({
      id: 1,
      _links: { all: { href: '/all', title: 'All', type: 'application/json' }, x: { href: 'rel/x' } },
    });
  });

  it('lets a later link replace one of the same relation', () => {
    const wrapper = new HalEntityWrapper({ id: 1 }, { href: '/a', rel: 'self' }).addLinks({ href: '/b', rel: 'self' });
    expect(wrapper.links.get('self')).toEqual({ href: '/b' });
  });

  it('uses an entity toJSON for its fields', () => {
    const entity = { secret: 1, toJSON: () => ({ shown: true }) };
    expect(new HalEntityWrapper(entity).toJSON()).toEqual({ shown: true, _links: {} });
  });

  it("writes an entity whose toJSON gives no object under 'value'", () => {
    const date = new Date(Date.UTC(2024, 0, 2));
    expect(new HalEntityWrapper(date, { href: '/day', rel: 'self' }).toJSON()).toEqual({
      value: '2024-01-02T00:00:00.000Z',
      _links: { self: { href: '/day' } },
    });
  });
});

describe('HalCollectionWrapper', () => {
  it('embeds its items under its name with its own links', () => {
    const items = [new HalEntityWrapper({ id: 1 }, { href: '/1', rel: 'self' })];
    expect(
      JSON.parse(JSON.stringify(new HalCollectionWrapper(items, 'things', { href: '/things', rel: 'list' }))),
    ).toEqual({
      _embedded: { things: [{ id: 1, _links: { self: { href: '/1' } } }] },
      _links: { list: { href: '/things' } },
    });
  });
});
