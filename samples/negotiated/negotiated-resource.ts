/** `/negotiated`: the representation follows `Accept`, the method follows `Content-Type`. */
import { Body, Consumes, GET, Path, Produces, PUT } from '../../lib';
import { Cheese } from './cheese';
import { CheeseTextWriter } from './cheese-text-writer';

@Path('negotiated')
export class NegotiatedResource {
  /** `{"name":"Morbier"}` or `Cheese: Morbier`, by `Accept` (q-values honoured). */
  @GET
  @Produces('application/json', 'text/plain')
  get(): Cheese {
    return Cheese.of('Morbier');
  }

  /** JSON in, text out: `{"name":"Brie"}` → `Cheese: Brie`. */
  @PUT
  @Consumes('application/json')
  @Produces('text/plain')
  putJson(@Body({ type: Cheese }) cheese: Cheese): Cheese {
    return cheese;
  }

  /** Text in, JSON out: `Comté` → `{"name":"Comté"}`. */
  @PUT
  @Consumes('text/plain')
  @Produces('application/json')
  putText(@Body({ type: String }) name: string): Cheese {
    return Cheese.of(name);
  }
}

export const negotiatedSampleClasses: Function[] = [NegotiatedResource, CheeseTextWriter];
