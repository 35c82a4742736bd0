// The REST client's request side and error mapping against resources of its own, served on a real socket: values as
// parameters, item bodies in every framing, a writer of the application's, a path parameter left out, a 405.
import { firstValueFrom, lastValueFrom, of, toArray } from 'rxjs';
import {
  Body,
  Consumes,
  GET,
  NotAllowedException,
  Path,
  POST,
  PUT,
  RestClient,
  RestPath,
  RestQuery,
  type MessageBodyWriter,
} from '../../lib/client';
import { Multi, multi, Provider, RestApplication, type RunningServer } from '../../lib';

/** A row of a CSV body: written by the client's own writer, read by the server as text. */
class Row {
  constructor(readonly cells: string[]) {}
}

@Path('calls')
class CallResource {
  @GET @Path('when') when(@RestQuery() at: Date, @RestQuery() tags: Set<string>): string {
    return `${at.toISOString()} ${[...tags].join('+')}`;
  }

  @GET @Path('item/{id}') item(@RestPath() id: string): string {
    return `item ${id}`;
  }

  @POST @Path('ndjson') @Consumes('application/jsonl') jsonl(@Body() items: Multi<number>) {
    return lastValueFrom(items.pipe(toArray()));
  }

  @POST @Path('seq') @Consumes('application/json-seq') seq(@Body() items: Multi<number>) {
    return lastValueFrom(items.pipe(toArray()));
  }

  @POST @Path('array') @Consumes('application/json') array(@Body() items: Multi<{ n: number }>) {
    return lastValueFrom(items.pipe(toArray()));
  }

  @POST @Path('events') @Consumes('text/event-stream') events(@Body() items: Multi<unknown>) {
    return lastValueFrom(items.pipe(toArray()));
  }

  @POST @Path('lines') @Consumes('application/x-ndjson') lines(@Body() items: Multi<number>) {
    return lastValueFrom(items.pipe(toArray()));
  }

  @POST @Path('csv') @Consumes('text/csv') csv(@Body() text: string): string {
    return `received ${JSON.stringify(text)}`;
  }
}

/** The client's view of the same path: a PUT the server does not have. */
@Path('calls')
class CallContract {
  @PUT @Path('when') replace(): string {
    return '';
  }
}

/** Item bodies of media types the client has no framing for: named like members of `Object.prototype`, or unknown. */
@Path('calls/lines')
class OddTypesContract {
  @POST @Consumes('constructor') byConstructor(@Body() items: Multi<number>): number[] {
    return [];
  }

  @POST @Consumes('__proto__') byProto(@Body() items: Multi<number>): number[] {
    return [];
  }

  @POST @Consumes('toString') byToString(@Body() items: Multi<number>): number[] {
    return [];
  }

  @POST @Consumes('application/x-unknown') byUnknown(@Body() items: Multi<number>): number[] {
    return [];
  }
}

@Provider()
class CsvWriter implements MessageBodyWriter<Row> {
  isWriteable(type: Function | undefined) {
    return type === Row;
  }
  writeTo(row: Row) {
    return row.cells.join(',');
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [CallResource] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

describe('RestClient calls', () => {
  it('sends a Date as ISO-8601 and a Set as repeated parameters', async () => {
    const calls = RestClient.create(CallResource, { baseUrl: server.url });
    const at = new Date(Date.UTC(2024, 1, 29, 12, 30));
    expect(await firstValueFrom(calls.when(at, new Set(['a', 'b'])))).toBe('2024-02-29T12:30:00.000Z a+b');
  });

  it('refuses a call without a path parameter before sending anything', async () => {
    const calls = RestClient.create(CallResource, { baseUrl: server.url });
    const error = await firstValueFrom(calls.item(undefined as unknown as string)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('CallResource.item: the path parameter "id" needs a value');
  });

  it('frames a body of items by the media type the method consumes', async () => {
    const calls = RestClient.create(CallResource, { baseUrl: server.url });
    expect(await firstValueFrom(calls.jsonl(of(1, 2, 3)))).toEqual([1, 2, 3]);
    expect(await firstValueFrom(calls.seq(multi(of(4, 5))))).toEqual([4, 5]);
    expect(await firstValueFrom(calls.array(of({ n: 1 }, { n: 2 })))).toEqual([{ n: 1 }, { n: 2 }]);
    const sent = async function* () {
      yield 'two\nlines';
      yield { n: 3 };
    };
    expect(await firstValueFrom(calls.events(sent()))).toEqual([{ data: 'two\nlines' }, { data: { n: 3 } }]);
  });

  it('sends an item body as NDJSON when @Consumes names a type like constructor or __proto__, as for any unknown type', async () => {
    const calls = RestClient.create(OddTypesContract, { baseUrl: server.url });
    expect(await firstValueFrom(calls.byUnknown(of(1, 2)))).toEqual([1, 2]);
    expect(await firstValueFrom(calls.byConstructor(of(3, 4)))).toEqual([3, 4]);
    expect(await firstValueFrom(calls.byProto(of(5, 6)))).toEqual([5, 6]);
    expect(await firstValueFrom(calls.byToString(of(7, 8)))).toEqual([7, 8]);
  });

  it("writes a body with the application's own writer", async () => {
    const calls = RestClient.create(CallResource, { baseUrl: server.url, providers: [new CsvWriter()] });
    expect(await firstValueFrom(calls.csv(new Row(['a', 'b', 'c']) as unknown as string))).toBe('received "a,b,c"');
  });

  it('maps a 405 to NotAllowedException naming the allowed methods', async () => {
    const contract = RestClient.create(CallContract, { baseUrl: server.url });
    const error = await firstValueFrom(contract.replace()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAllowedException);
    expect((error as NotAllowedException).status).toBe(405);
    expect((error as NotAllowedException).allowed).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});
