/** Metrics summed across `framework.http.workers` by the primary: else each scrape would see one worker at random. */
import { isClusterWorker } from '../runtime/node-builtins';
import { loadPackage } from '../runtime/load-package';
import { logging } from '../logging/logger';

const log = logging.getLogger('rxrest.server');

export interface MetricsRequest {
  readonly rxrest: 'metrics-request';
  readonly id: number;
}

export interface MetricsAnswer {
  readonly rxrest: 'metrics';
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/** How long a worker waits for the summed metrics before it answers with its own. */
const ANSWER_TIMEOUT_MS = 6_000;

/** In a cluster worker, how to ask the primary for the summed metrics (else `own()`); `undefined` outside one. */
export function clusterScrape(
  registry: import('prom-client').Registry,
  own: () => Promise<string>,
): (() => Promise<string>) | undefined {
  if (!isClusterWorker() || !process.send) return undefined;
  const { AggregatorRegistry } = loadPackage<typeof import('prom-client')>('prom-client');
  AggregatorRegistry.setRegistries([registry]);
  // Made for its side effect: in a worker, it answers the primary's requests for this worker's registry.
  new AggregatorRegistry();
  const waiting = new Map<number, (answer: MetricsAnswer | undefined) => void>();
  let next = 0;
  process.on('message', (message: Partial<MetricsAnswer> | null) => {
    if (message?.rxrest === 'metrics' && message.id !== undefined) waiting.get(message.id)?.(message as MetricsAnswer);
  });
  return async () => {
    const id = next++;
    const answer = await new Promise<MetricsAnswer | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ANSWER_TIMEOUT_MS);
      waiting.set(id, (received) => (clearTimeout(timer), resolve(received)));
      process.send!({ rxrest: 'metrics-request', id } satisfies MetricsRequest);
    });
    waiting.delete(id);
    if (answer?.text !== undefined) return answer.text;
    log.warn(
      `The workers' metrics could not be summed (${answer?.error ?? 'no answer'}): this scrape shows one worker's`,
    );
    return own();
  };
}
