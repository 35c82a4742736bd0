/** `/fruits`: JSON in and out, declared once on the class. */
import { Body, Consumes, DELETE, GET, Multi, Path, POST, Produces } from '../../lib';
import { Fruit } from './fruit';

/** The current fruits, shared with `/streams/fruits`. */
export const fruitStore: Fruit[] = [
  { name: 'Apple', description: 'Winter fruit' },
  { name: 'Pineapple', description: 'Tropical fruit' },
];

@Path('fruits')
@Produces('application/json')
@Consumes('application/json')
export class FruitResource {
  readonly #fruits: Fruit[] = fruitStore;

  @GET
  list(): Fruit[] {
    return this.#fruits;
  }

  @POST
  add(fruit: Fruit): Fruit[] {
    this.#fruits.push(fruit);
    return this.#fruits;
  }

  /**
   * NDJSON of fruits, one per line, each checked like a JSON Fruit as it arrives and added at once: `{ "imported": n }`.
   * The first invalid line answers 400 naming it (the fruits before it stay added). Read at the pace of the
   * loop, so an upload of any size takes no more memory than a line.
   */
  @POST
  @Path('import')
  @Consumes('application/x-ndjson')
  async import(@Body({ type: Fruit }) fruits: Multi<Fruit>): Promise<{ imported: number }> {
    let imported = 0;
    for await (const fruit of fruits) {
      this.#fruits.push(fruit);
      imported++;
    }
    return { imported };
  }

  @DELETE
  delete(fruit: Fruit): Fruit[] {
    for (let i = this.#fruits.length - 1; i >= 0; i--)
      if (this.#fruits[i].name === fruit.name) this.#fruits.splice(i, 1);
    return this.#fruits;
  }
}
