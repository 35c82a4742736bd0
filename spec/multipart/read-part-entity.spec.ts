import { readdirSync } from 'node:fs';
import {
  Consumes,
  IOException,
  MultipartPartReadingException,
  PartType,
  Path,
  POST,
  Produces,
  Provider,
  resolveConfig,
  RestApplication,
  RestForm,
  RestResponse,
  ServerExceptionMapper,
  type EntityInput,
  type MessageBodyReader,
} from '../../lib';
import { listingOnce, tempDir } from '../support/temp-dir';

enum Color {
  Red = 'RED',
  Green = 'GREEN',
}

class Table {
  constructor(readonly rows: string[][]) {}
}

class Thing {
  name = '';
}

@Provider()
@Consumes('text/csv')
class CsvReader implements MessageBodyReader<Table> {
  isReadable(type: unknown): boolean {
    return type === Table;
  }

  async readFrom(_type: unknown, _mediaType: string, headers: Headers, input: EntityInput): Promise<Table> {
    const text = await input.text();
    if (text.includes('!')) throw new IOException('bad csv');
    const rows = text.split(/\r?\n/).map((line) => line.split(','));
    if (headers.get('x-header-row') === 'true') rows.shift();
    return new Table(rows);
  }
}

@Path('entity')
class EntityResource {
  @POST
  @Path('count')
  @Produces('application/json')
  count(@RestForm() @PartType('text/plain') count: number) {
    return { count, type: typeof count };
  }

  @POST
  @Path('color')
  @Produces('application/json')
  color(@RestForm('color', { type: Color }) @PartType('text/plain') color: Color) {
    return { color };
  }

  @POST
  @Path('counts')
  @Produces('application/json')
  counts(@RestForm('n', { type: [Number] }) @PartType('text/plain') counts: number[]) {
    return { counts };
  }

  @POST
  @Path('csv')
  @Produces('application/json')
  csv(@RestForm() @PartType('text/csv') table: Table) {
    return { isTable: table instanceof Table, rows: table.rows };
  }

  @POST
  @Path('bytes')
  @Produces('application/json')
  bytes(@RestForm('blob', { type: Uint8Array }) @PartType('application/octet-stream') blob: Uint8Array) {
    return { isBytes: blob instanceof Uint8Array, length: blob.length, first: blob[0] };
  }

  @POST
  @Path('thing')
  @Produces('application/json')
  thing(@RestForm() @PartType('application/x-thing') thing: Thing) {
    return { thing };
  }
}

class PartMapper {
  @ServerExceptionMapper()
  map(error: MultipartPartReadingException) {
    return RestResponse.ResponseBuilder.status(422).header('x-part', error.partName).build();
  }
}

const dir = tempDir('mp-entity');
const config = resolveConfig({ overrides: { 'framework.http.body.uploads-directory': dir } });
const app = RestApplication.build({ classes: [EntityResource, CsvReader], config });

async function post(
  path: string,
  fill: (form: FormData) => void,
  on = app,
): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  fill(form);
  const res = await on.fetch(new Request(`http://localhost/entity/${path}`, { method: 'POST', body: form }));
  const text = await res.text();
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text,
  };
}

afterEach(async () => {
  expect(await listingOnce(dir)).toEqual([]);
});

describe('compilePartEntityReader', () => {
  it('reads a text/plain part into a number with @PartType', async () => {
    expect(await post('count', (f) => f.append('count', ' 42 '))).toEqual({
      status: 200,
      body: { count: 42, type: 'number' },
    });
  });

  it('answers 400 RXREST_PART_UNREADABLE naming the part when a text/plain part is not a number', async () => {
    const res = await post('count', (f) => f.append('count', 'many'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'RXREST_PART_UNREADABLE', violations: [{ in: 'part', field: 'count' }] });
  });

  it('reads an enum by member value or name, and refuses other values', async () => {
    expect(await post('color', (f) => f.append('color', 'GREEN'))).toEqual({ status: 200, body: { color: 'GREEN' } });
    expect(await post('color', (f) => f.append('color', 'Red'))).toEqual({ status: 200, body: { color: 'RED' } });
    expect((await post('color', (f) => f.append('color', 'PINK'))).status).toBe(400);
  });

  it('reads every part of a name into a list of numbers', async () => {
    expect(await post('counts', (f) => (f.append('n', '1'), f.append('n', '2')))).toEqual({
      status: 200,
      body: { counts: [1, 2] },
    });
  });

  it('reads a custom media type with a @Provider reader, giving it the part headers; file parts too', async () => {
    expect(await post('csv', (f) => f.append('table', 'a,b\nc,d'))).toEqual({
      status: 200,
      body: {
        isTable: true,
        rows: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
    });
    expect(await post('csv', (f) => f.append('table', new Blob(['x,y']), 't.csv'))).toEqual({
      status: 200,
      body: { isTable: true, rows: [['x', 'y']] },
    });
    const boundary = 'B1';
    const res = await app.fetch(
      new Request('http://localhost/entity/csv', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="table"\r\nX-Header-Row: true\r\n\r\nh1,h2\nv1,v2\r\n--${boundary}--\r\n`,
      }),
    );
    expect(await res.json()).toEqual({ isTable: true, rows: [['v1', 'v2']] });
  });

  it('turns a reader IOException into a MultipartPartReadingException (400), which a mapper may answer otherwise', async () => {
    const res = await post('csv', (f) => f.append('table', 'a,!'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'RXREST_PART_UNREADABLE', detail: 'The part "table" could not be read' });
    const mapped = RestApplication.build({ classes: [EntityResource, CsvReader, PartMapper], config });
    const form = new FormData();
    form.append('table', 'a,!');
    const again = await mapped.fetch(new Request('http://localhost/entity/csv', { method: 'POST', body: form }));
    await again.text();
    expect(again.status).toBe(422);
    expect(again.headers.get('x-part')).toBe('table');
  });

  it('reads an octet-stream file part into bytes with the built-in raw reader', async () => {
    expect(await post('bytes', (f) => f.append('blob', new Blob([new Uint8Array([9, 8, 7])]), 'b.bin'))).toEqual({
      status: 200,
      body: { isBytes: true, length: 3, first: 9 },
    });
  });

  it('answers 400 for a part type no reader reads', async () => {
    const res = await post('thing', (f) => f.append('thing', '{"name":"x"}'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'RXREST_PART_UNREADABLE' });
  });
});
