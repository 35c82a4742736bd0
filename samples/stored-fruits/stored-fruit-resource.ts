/** `/stored-fruits`: the redirect example: POST stores a Fruit and answers 303 to its GET. */
import {
  APIResponse,
  Consumes,
  GET,
  NotFoundException,
  Path,
  POST,
  Produces,
  RestPath,
  RestResponse,
  Transactional,
} from '../../lib';
import { Fruit } from '../fruits/fruit';

/** A stored fruit, with the id the server assigned. */
export interface StoredFruit {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
}

/** Stored fruits kept at most: anyone may store one, so the oldest are forgotten (their GET answers 404). */
const KEPT = 100;

@Path('stored-fruits')
export class StoredFruitResource {
  readonly #fruits = new Map<number, StoredFruit>();
  #nextId = 1;

  /** Stores the fruit and sends the client to GET it: `303 See Other` with an absolute Location. */
  @POST
  @Transactional
  @Consumes('application/json')
  @APIResponse({ status: 303, description: 'Stored: Location names the fruit to GET' })
  add(fruit: Fruit, request: Request): RestResponse<never> {
    const id = this.#nextId++;
    this.#fruits.set(id, { id, name: fruit.name, description: fruit.description });
    this.#fruits.delete(id - KEPT);
    const location = new URL(request.url);
    location.search = '';
    location.pathname = `${location.pathname.replace(/\/+$/, '')}/${id}`;
    return RestResponse.seeOther(location);
  }

  @GET
  @Path('{id}')
  @Produces('application/json')
  get(@RestPath() id: number): StoredFruit {
    const fruit = this.#fruits.get(id);
    if (!fruit) throw new NotFoundException(`No stored fruit ${id}`);
    return fruit;
  }
}
