/**
 * Which application a module-level `broadcast(topic)` means: the one whose request, socket message or resumable stream
 * uses it, else the one open. The request's application is carried by an `AsyncLocalStorage` only once two have been
 * open, so the usual process of one application pays nothing for it.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { BroadcastTopics } from './broadcast-topics';
import { nodeBuiltin } from '../runtime/node-builtins';

const open: BroadcastTopics[] = [];
let scope: AsyncLocalStorage<BroadcastTopics> | undefined;

/** Lists an application's topics as open; returns how to take them off the list. */
export function opened(topics: BroadcastTopics): () => void {
  open.push(topics);
  return () => {
    const at = open.indexOf(topics);
    if (at >= 0) open.splice(at, 1);
  };
}

/** Whether work must be run `within` its application to mean it: only once two applications have been open at once. */
export function scoping(): boolean {
  return open.length > 1 || scope !== undefined;
}

/** Runs `work` (and what it calls, after each await too) as the application whose topics these are. */
export function within<R>(topics: BroadcastTopics, work: () => R): R {
  if (!scoping()) return work();
  scope ??= new (nodeBuiltin('node:async_hooks', 'two applications in one process').AsyncLocalStorage)();
  return scope.run(topics, work);
}

/** The topics `broadcast(topic)` means here and now; throws when none, or more than one, could be meant. */
export function currentTopics(what: string): BroadcastTopics {
  const scoped = scope?.getStore();
  if (scoped && open.includes(scoped)) return scoped;
  if (open.length === 1) return open[0]!;
  if (open.length === 0)
    throw new Error(
      `${what}: no application is running in this process; build one first (RestApplication.build), whose framework.broadcast.* settings say where events go`,
    );
  throw new Error(
    `${what}: ${open.length} applications are running in this process and this call comes from none of their requests (a timer, a queue consumer): take the topic from the one you mean, app.broadcast(topic)`,
  );
}
