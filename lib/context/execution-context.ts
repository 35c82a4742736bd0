/** What Cloudflare Workers pass `fetch` third (`waitUntil`, `passThroughOnException`), kept on the request for a Hono Context. */
import { ContextKey } from './context-key';

export const EXECUTION_CONTEXT = new ContextKey<unknown>('execution-context');
