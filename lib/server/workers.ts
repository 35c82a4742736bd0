/** `framework.http.workers` above 1: the primary forks, supervises and replaces `node:cluster` workers. */
import { loadPackage } from '../runtime/load-package';
import type { Worker } from 'node:cluster';
import { logging } from '../logging/logger';
import type { RunningServer, WorkerListening } from './listen';
import type { MetricsAnswer, MetricsRequest } from '../metrics/cluster-metrics';
import { messageOf } from '../errors/message-of';
import { nodeCluster } from './node-http';

const log = logging.getLogger('rxrest.server');

const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;
/** A worker that served this long before dying starts its back-off afresh. */
const STEADY_AFTER_MS = 10_000;
/** After the shutdown timeout, how long workers still get to exit before they are killed. */
const KILL_MARGIN_MS = 2_000;

export interface WorkerOptions {
  readonly count: number;
  readonly host: string;
  /** The primary waits that long (and a margin). */
  readonly shutdownTimeout: number;
  readonly handleSignals?: boolean;
  /** The primary sums its workers' registries for a scrape any of them gets. */
  readonly aggregateMetrics?: boolean;
}

interface Slot {
  worker: Worker;
  startedAt: number;
  deathsInARow: number;
}

/** Doubled for each death in a row, up to the cap. */
export function restartDelay(deathsInARow: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, deathsInARow - 1));
}

/** A worker's scrape on the shared port is answered with every worker's metrics, summed by prom-client. */
function answerScrapes(): (worker: Worker, message: Partial<MetricsRequest> | null) => void {
  let aggregator: import('prom-client').AggregatorRegistry<import('prom-client').PrometheusContentType> | undefined;
  return (worker, message) => {
    if (message?.rxrest !== 'metrics-request' || message.id === undefined) return;
    const { AggregatorRegistry } = loadPackage<typeof import('prom-client')>('prom-client');
    aggregator ??= new AggregatorRegistry();
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ rxrest: 'metrics', id, text } satisfies MetricsAnswer),
      (error: unknown) => worker.isConnected() && worker.send({ rxrest: 'metrics', id, error: messageOf(error) }),
    );
  };
}

class WorkerPool {
  readonly #slots: Slot[] = [];
  readonly #restarts = new Set<NodeJS.Timeout>();
  readonly #options: WorkerOptions;
  /** A worker exited before every one listened. */
  readonly #failed: (error: Error) => void;
  #started = false;
  #closing: Promise<void> | undefined;

  constructor(options: WorkerOptions, failed: (error: Error) => void) {
    this.#options = options;
    this.#failed = failed;
  }

  start(started: (server: RunningServer) => void): void {
    const { count, host } = this.#options;
    // Like a single process, a second signal ends the primary at once; its workers then exit as their channel closes.
    if (this.#options.handleSignals !== false) {
      process.once('SIGTERM', this.#onSignal);
      process.once('SIGINT', this.#onSignal);
      process.on('SIGHUP', this.#onReload);
    }
    if (this.#options.aggregateMetrics) nodeCluster().on('message', answerScrapes());
    let listening = 0;
    for (let index = 0; index < count; index++) {
      const slot = this.#fork();
      this.#slots.push(slot);
      slot.worker.on('message', (message: Partial<WorkerListening> | null) => {
        if (message?.rxrest !== 'listening' || this.#started || ++listening < count) return;
        this.#started = true;
        log.info(`${count} workers listening on ${message.url}`);
        const { port, url, insecure } = message as WorkerListening;
        started({ port, host, url, insecure, server: undefined, role: 'primary', workers: count, close: this.close });
      });
    }
  }

  readonly close = (): Promise<void> =>
    (this.#closing ??= this.#stopAll().then(() => {
      process.off('SIGTERM', this.#onSignal);
      process.off('SIGINT', this.#onSignal);
      process.off('SIGHUP', this.#onReload);
    }));

  #fork(slot?: Slot): Slot {
    const worker = nodeCluster().fork();
    const filled: Slot = Object.assign(slot ?? { deathsInARow: 0 }, { worker, startedAt: Date.now() });
    worker.on('exit', (code, signal) => this.#onExit(filled, worker, code, signal));
    return filled;
  }

  #onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (this.#closing) {
      if (code !== 0 && code !== null) process.exitCode = 1;
      return;
    }
    if (!this.#started) {
      const error = new Error(`Worker ${worker.process.pid} exited with ${how} before listening; see its output above`);
      this.#closing = this.#stopAll();
      void this.#closing.then(() => this.#failed(error));
      return;
    }
    slot.deathsInARow = Date.now() - slot.startedAt >= STEADY_AFTER_MS ? 1 : slot.deathsInARow + 1;
    const delay = restartDelay(slot.deathsInARow);
    log.error(`Worker ${worker.process.pid} exited with ${how}; starting a new one in ${delay} ms`);
    const timer = setTimeout(() => {
      this.#restarts.delete(timer);
      if (!this.#closing) this.#fork(slot);
    }, delay);
    this.#restarts.add(timer);
  }

  #live(): Worker[] {
    return this.#slots.map((slot) => slot.worker).filter((worker) => !worker.isDead());
  }

  /** Each worker drains like a single process would; stragglers are killed. */
  #stopAll(): Promise<void> {
    for (const timer of this.#restarts) clearTimeout(timer);
    this.#restarts.clear();
    const live = this.#live();
    const exits = live.map(
      (worker) => new Promise<void>((done) => (worker.isDead() ? done() : worker.once('exit', () => done()))),
    );
    const kill = setTimeout(() => {
      for (const worker of live) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, this.#options.shutdownTimeout + KILL_MARGIN_MS);
    kill.unref();
    for (const worker of live) worker.process.kill('SIGTERM');
    return Promise.all(exits).then(() => clearTimeout(kill));
  }

  readonly #onSignal = (signal: NodeJS.Signals) => {
    if (this.#closing) return;
    log.info(`${signal} received: stopping ${this.#slots.length} workers, each finishing its in-flight requests`);
    void this.close().then(() => log.info('Workers stopped'));
  };

  // `systemctl reload` or a closed terminal: each worker reloads its certificates as a single process does, and
  // the primary lives on (Node's default for SIGHUP would end it, and every worker with it).
  readonly #onReload = () => {
    const live = this.#live();
    log.info(`SIGHUP received: passed on to ${live.length} workers`);
    for (const worker of live) worker.process.kill('SIGHUP');
  };
}

/** Resolves once every worker listens (with port 0, the first picks it and the others share it). */
export function superviseWorkers(options: WorkerOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => new WorkerPool(options, reject).start(resolve));
}
