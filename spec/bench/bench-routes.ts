/** The routes every benchmarked server serves, and the requests the load generator sends to them. */

/** GET /bench/fruits answers this list. */
export const FRUITS: readonly { name: string; description: string }[] = [
  { name: 'Apple', description: 'Winter fruit' },
  { name: 'Pineapple', description: 'Tropical fruit' },
];

/** One route under load: the request wrk repeats, and what a correct answer starts with. */
export interface BenchRoute {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** JSON request body (POST only). */
  readonly body?: string;
  /** The exact response body every server must send, checked once before measuring. */
  readonly expected: string;
}

const ECHO_BODY = JSON.stringify({ name: 'Banana', description: 'Yellow and bent', stock: 12, tags: ['fruit', 'soft'] });

export const BENCH_ROUTES: readonly BenchRoute[] = [
  { name: 'GET json', method: 'GET', path: '/bench/fruits', expected: JSON.stringify(FRUITS) },
  { name: 'GET path+query', method: 'GET', path: '/bench/items/42?limit=10', expected: '{"id":42,"limit":10}' },
  { name: 'POST json echo', method: 'POST', path: '/bench/echo', body: ECHO_BODY, expected: ECHO_BODY },
];

/** The line a server child prints on stdout once it listens: `LISTENING <port>`. */
export const READY_PREFIX = 'LISTENING ';

