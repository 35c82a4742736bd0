/** `/streams`: a Multi of the fruits by Accept, endless or counted SSE ticks, and the ticks still subscribed. */
import { finalize, interval, map, Observable, of, take } from 'rxjs';
import { z } from 'zod';
import { Body, Consumes, GET, Multi, Path, POST, Produces, QueryParam, RestStreamElementType, multi } from '../../lib';
import { fruitStore } from '../fruits/fruit-resource';
import type { Fruit } from '../fruits/fruit';

@Path('streams')
export class StreamResource {
  #active = 0;

  /** The current fruits: a JSON array by default, NDJSON or SSE by `Accept`. */
  @GET
  @Path('fruits')
  @Produces('application/json', 'application/x-ndjson', 'text/event-stream')
  fruits(): Multi<Fruit> {
    return multi(of(...fruitStore));
  }

  /**
   * `count` ticks (endless without it), one every `intervalMs` (default 1000, at most a minute: a timer given more
   * than 2^31 ms fires at once), as SSE data `0`, `1`...
   */
  @GET
  @Path('ticks')
  @Produces('text/event-stream')
  ticks(
    @QueryParam('count') count?: number,
    @QueryParam('intervalMs', { schema: z.coerce.number().int().min(0).max(60_000).optional() }) intervalMs?: number,
  ): Multi<string> {
    const every = intervalMs ?? 1000;
    let ticks: Observable<number> = interval(every);
    if (count !== undefined) ticks = ticks.pipe(take(count));
    return multi(
      new Observable<string>((subscriber) => {
        this.#active++;
        const subscription = ticks
          .pipe(
            map(String),
            finalize(() => this.#active--),
          )
          .subscribe(subscriber);
        return subscription;
      }),
    );
  }

  /** NDJSON of strings in, the same strings upper-cased out, each line answered as soon as it has arrived. */
  @POST
  @Path('uppercase')
  @Consumes('application/x-ndjson')
  @Produces('application/x-ndjson')
  @RestStreamElementType('application/json')
  uppercase(@Body({ type: String }) words: Multi<string>): Multi<string> {
    return multi(words.pipe(map((word) => word.toUpperCase())));
  }

  /** How many tick streams are subscribed right now (watch it drop when a client disconnects). */
  @GET
  @Path('active')
  @Produces('application/json')
  active(): { active: number } {
    return { active: this.#active };
  }
}

export const streamSampleClasses: Function[] = [StreamResource];
