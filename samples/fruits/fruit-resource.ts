/** `/fruits`: JSON in and out, declared once on the class. */
import { Consumes, DELETE, GET, Path, POST, Produces } from '../../lib';
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

  @DELETE
  delete(fruit: Fruit): Fruit[] {
    for (let i = this.#fruits.length - 1; i >= 0; i--) if (this.#fruits[i].name === fruit.name) this.#fruits.splice(i, 1);
    return this.#fruits;
  }
}
