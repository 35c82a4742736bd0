// An application written as users write theirs, compiled twice by spec/metadata/emitted-metadata.spec.ts: by `tsc`
// (the whole program's types: what a user's build emits) and file by file (ts-jest's transpile mode, swc, Vite).
// Decorator metadata differs between the two — `import { type Multi }` (the README's style) is `Function` under tsc
// and `Object` file by file; an imported string enum is `String` under tsc — and the application must answer alike.
import { of, Observable as ValueObservable } from 'rxjs';
import type { Observable } from 'rxjs';
import { APIResponse, Body, GET, POST, Path, Produces, RestQuery, multi, type Multi } from '../../../lib';
import { Multi as ValueMulti } from '../../../lib';
import { Code, Color, Fruit, Level, type Code as CodeType, type Item, type Shape } from './typed-model';
import { Order } from './typed-order';

const FRUITS = ['apple', 'pear'].map((name) => Object.assign(new Fruit(), { name }));

/** What a handler received: each value's class (or type) and JSON, so both builds can be compared over the wire. */
function described(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const kind = typeof value === 'object' && value !== null ? value.constructor.name : typeof value;
      return [name, `${kind}:${typeof value === 'object' ? JSON.stringify(value) : String(value)}`];
    }),
  );
}

@Path('typed')
export class TypedResource {
  /** Quarkus's RestMultiResponseTest#shouldWorkWithoutProducesAnnotation: a Multi, no @Produces. */
  @GET
  @Path('multi')
  @APIResponse({ schema: Fruit })
  fruits(): Multi<Fruit> {
    return multi(ValueMulti.from(FRUITS));
  }

  @GET
  @Path('value-multi')
  valueFruits(): ValueMulti<Fruit> {
    return ValueMulti.from(FRUITS);
  }

  @GET
  @Path('generator')
  async *generated(): AsyncGenerator<Fruit> {
    yield* FRUITS;
  }

  @GET
  @Path('observable')
  first(): Observable<Fruit> {
    return of(...FRUITS);
  }

  @GET
  @Path('value-observable')
  valueFirst(): ValueObservable<Fruit> {
    return of(...FRUITS);
  }

  @GET
  @Path('fruit')
  fruit(): Fruit {
    return FRUITS[0]!;
  }

  @GET
  @Path('array')
  array(): Fruit[] {
    return FRUITS;
  }

  @GET
  @Path('ndjson')
  @Produces('application/x-ndjson')
  lines(): Multi<Fruit> {
    return ValueMulti.from(FRUITS);
  }

  @POST
  @Path('orders')
  order(order: Order): Record<string, string> {
    return described({ order, item: order.item, placed: order.placed });
  }

  @POST
  @Path('items')
  item(@Body() item: Item): Record<string, string> {
    return described({ item });
  }

  @POST
  @Path('shapes')
  shape(@Body() shape: Shape): Record<string, string> {
    return described({ shape });
  }

  @GET
  @Path('params')
  params(
    @RestQuery() color: Color,
    @RestQuery({ type: Level }) level: Level,
    @RestQuery() code: Code,
    @RestQuery() typeOnly: CodeType,
    @RestQuery() shape: Shape,
    @RestQuery() count: number,
  ): Record<string, string> {
    return described({ color, level, code, typeOnly, shape, count });
  }
}

/** An enum parameter without `{ type }`: what it receives depends on the compiler (docs/resources.md says so). */
@Path('loose')
export class LooseResource {
  @GET
  level(@RestQuery() level: Level): Record<string, string> {
    return described({ level });
  }
}
