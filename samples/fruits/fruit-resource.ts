/** `/fruits`: JSON in and out, declared once on the class. */
import { Body, ConflictException, Consumes, DELETE, GET, Multi, Path, POST, Produces } from '../../lib';
import { Fruit } from './fruit';

/**
 * Fruits the samples keep at most: anyone may add one, and every POST answers the whole list, so both the store and
 * the answer stay small (at most 100 fruits of at most 64 + 256 characters).
 */
export const MAX_FRUITS = 100;

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

  /** Adds the fruit and answers the whole list; 409 once the samples keep `MAX_FRUITS` (delete some first). */
  @POST
  add(fruit: Fruit): Fruit[] {
    this.#keep(fruit);
    return this.#fruits;
  }

  /**
   * NDJSON of fruits, one per line, each checked like a JSON Fruit as it arrives and added at once: `{ "imported": n }`.
   * The first invalid line answers 400 naming it, a fruit past `MAX_FRUITS` 409 (the fruits before it stay added).
   * Read at the pace of the loop, so an upload of any size takes no more memory than a line.
   */
  @POST
  @Path('import')
  @Consumes('application/x-ndjson')
  async import(@Body({ type: Fruit }) fruits: Multi<Fruit>): Promise<{ imported: number }> {
    let imported = 0;
    for await (const fruit of fruits) {
      this.#keep(fruit);
      imported++;
    }
    return { imported };
  }

  #keep(fruit: Fruit): void {
    if (this.#fruits.length >= MAX_FRUITS)
      throw new ConflictException(`The samples keep at most ${MAX_FRUITS} fruits: delete some first`);
    this.#fruits.push(fruit);
  }

  @DELETE
  delete(fruit: Fruit): Fruit[] {
    for (let i = this.#fruits.length - 1; i >= 0; i--)
      if (this.#fruits[i].name === fruit.name) this.#fruits.splice(i, 1);
    return this.#fruits;
  }
}
