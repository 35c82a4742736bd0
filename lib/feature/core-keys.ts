/** What the build step itself hands every feature, under typed keys. */
import type { JsonMapper } from '../json/json-mapper';
import type { HeldBytes } from '../streaming/held-bytes';
import type { OpenStreams } from '../streaming/open-streams';
import { BuildKey } from './build-key';

/** The application's JSON mapper (its own `JsonMapper` provider, else the default). */
export const JSON_MAPPER = new BuildKey<JsonMapper>('json-mapper');
/** The streams being written now (ended at shutdown, counted by metrics). */
export const OPEN_STREAMS = new BuildKey<OpenStreams>('open-streams');
/** The bytes the application's outgoing streams and sockets hold ahead of their clients (a gauge for metrics). */
export const HELD_BYTES = new BuildKey<HeldBytes>('held-bytes');
/** How many calls wait for the worker lane now. */
export const WORKER_QUEUE = new BuildKey<{ readonly waiting: number }>('worker-queue');
