// Type expectations of the REST client, checked by `npm run typecheck` (tsc --noEmit over spec/): each `Expect`
// line fails to compile if a client method's type drifts, and each `@ts-expect-error` line fails if misuse compiles.
import { Observable } from 'rxjs';
import { RestClient, type ClientSseEvent } from '../../lib/client';
import {
  GET,
  Path,
  POST,
  Produces,
  RestPath,
  RestQuery,
  RestResponse,
  multi,
  type FileUpload,
  type Multi,
  type SseEvent,
  type Uni,
} from '../../lib';
import { CheeseResource } from '../../samples/cheeses/cheese-resource';
import { FruitResource } from '../../samples/fruits/fruit-resource';
import type { Fruit } from '../../samples/fruits/fruit';
import { MultipartResource } from '../../samples/multipart/multipart-resource';
import { StoredFruitResource, type StoredFruit } from '../../samples/stored-fruits/stored-fruit-resource';
import { StreamResource } from '../../samples/streams/stream-resource';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

class Order {
  id = 0;
}

/** An item with fields an SSE event also has (`id`, `data`): still itself, not an event's unknown data. */
interface Notice {
  id: string;
  data: { text: string };
}

@Path('shapes')
class Shapes {
  @GET plain(): Order {
    return new Order();
  }
  @GET async later(@RestQuery() id: number): Promise<Order> {
    return Object.assign(new Order(), { id });
  }
  @GET uni(): Uni<string> {
    return new Observable<string>();
  }
  @GET @Produces('application/x-ndjson') notices(): Multi<Notice> {
    return multi(new Observable<Notice>());
  }
  @GET @Produces('text/event-stream') events(): Multi<SseEvent> {
    return multi(new Observable<SseEvent>());
  }
  @GET @Produces('application/x-ndjson') many(@RestPath() from: number, @RestQuery() to?: number): Multi<Order> {
    return multi(
      new Observable<Order>((subscriber) => subscriber.next(Object.assign(new Order(), { id: from + (to ?? 0) }))),
    );
  }
  @GET async *generated(): AsyncGenerator<number> {
    yield 1;
  }
  @GET response(): RestResponse<Order[]> {
    return RestResponse.ok([new Order()]);
  }
  @POST upload(file: FileUpload): void {
    void file;
  }
  @GET answer(): Response {
    return new Response();
  }
  private secret(): string {
    return 'not an endpoint';
  }
}

const shapes = RestClient.create(Shapes, { baseUrl: 'http://localhost:8080' });
export type Checks = [
  Expect<Equal<typeof shapes.plain, () => Observable<Order>>>,
  Expect<Equal<typeof shapes.later, (id: number) => Observable<Order>>>,
  Expect<Equal<typeof shapes.uni, () => Observable<string>>>,
  Expect<Equal<typeof shapes.many, (from: number, to?: number) => Observable<Order>>>,
  Expect<Equal<typeof shapes.notices, () => Observable<Notice>>>,
  Expect<Equal<typeof shapes.events, () => Observable<unknown>>>,
  Expect<Equal<typeof shapes.generated, () => Observable<number>>>,
  Expect<Equal<typeof shapes.response, () => Observable<Order[]>>>,
  Expect<Equal<ReturnType<typeof shapes.upload>, Observable<void>>>,
  Expect<Equal<typeof shapes.answer, () => Observable<unknown>>>,
  Expect<Equal<typeof shapes.$events.many, (from: number, to?: number) => Observable<ClientSseEvent<Order>>>>,
  Expect<Equal<ReturnType<typeof shapes.$with>['later'], (id: number) => Observable<Order>>>,
];

// The samples' own classes as contracts.
const fruits = RestClient.create(FruitResource, { baseUrl: 'http://localhost:8080' });
const streams = RestClient.create(StreamResource, { baseUrl: 'http://localhost:8080' });
const multipart = RestClient.create(MultipartResource, { baseUrl: 'http://localhost:8080' });
const cheeses = RestClient.create(CheeseResource, { baseUrl: 'http://localhost:8080' });
const storedFruits = RestClient.create(StoredFruitResource, { baseUrl: 'http://localhost:8080' });
// The context parameter (a Request) is void: the call may leave it out.
storedFruits.add({ name: 'Cherry' });
export type SampleChecks = [
  Expect<Equal<typeof fruits.list, () => Observable<Fruit[]>>>,
  Expect<Equal<typeof streams.fruits, () => Observable<Fruit>>>,
  Expect<Equal<typeof streams.ticks, (count?: number, intervalMs?: number) => Observable<string>>>,
  Expect<Equal<ReturnType<typeof multipart.person>, Observable<FormData>>>,
  Expect<Equal<Parameters<typeof multipart.upload>[1], Blob | { readonly path: string }>>,
  Expect<Equal<typeof cheeses.get, (name: string) => Observable<string>>>,
  Expect<Equal<Parameters<typeof storedFruits.add>, [fruit: Fruit, request?: void]>>,
  Expect<Equal<ReturnType<typeof storedFruits.get>, Observable<StoredFruit>>>,
  Expect<Equal<ReturnType<typeof storedFruits.add>, Observable<unknown>>>,
];

// @ts-expect-error a parameter of the wrong type
shapes.later('42');
// @ts-expect-error a missing required parameter
shapes.many();
// @ts-expect-error a method the class does not have
shapes.remove();
// @ts-expect-error the wrong body type
fruits.add({ title: 'Banana' });
// @ts-expect-error private members are not calls
shapes.secret();
// @ts-expect-error an item is not an array
streams.fruits().subscribe((fruit: Fruit[]) => fruit);
// @ts-expect-error a per-call option that does not exist
shapes.$with({ acept: 'text/plain' });
