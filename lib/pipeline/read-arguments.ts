/** The read step of an endpoint: its arguments, read by the readers the build step chose for each parameter. */
import type { RequestContext } from '../context/request-context';
import type { StageFn } from '../context/settle';
import type { ArgumentReader } from '../params/compile-argument';

/** Reads every argument; waits only when some reader answers later (bodies, forms). */
export function readArguments(readers: readonly ArgumentReader[]): StageFn {
  return (ctx: RequestContext) => {
    const args = new Array<unknown>(readers.length);
    let pending: Promise<unknown>[] | undefined;
    try {
      for (let i = 0; i < readers.length; i++) {
        const value = readers[i](ctx);
        if (value instanceof Promise) (pending ??= []).push(value.then((resolved) => (args[i] = resolved)));
        else args[i] = value;
      }
    } catch (error) {
      // A later argument failed: earlier pending reads are abandoned, and must not reject unhandled.
      for (const read of pending ?? []) read.catch(() => undefined);
      throw error;
    }
    ctx.args = args;
    return pending ? Promise.all(pending).then(() => ctx) : ctx;
  };
}
