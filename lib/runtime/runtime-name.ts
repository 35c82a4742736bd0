/** Which JavaScript runtime serves the application, for messages and for the few answers that differ by runtime. */

export type Runtime = 'node' | 'bun' | 'deno' | 'workerd' | 'unknown';

interface RuntimeGlobals {
  Bun?: unknown;
  Deno?: unknown;
  navigator?: { userAgent?: string };
  process?: { versions?: { node?: string } };
}

let found: Runtime | undefined;

/** The runtime this process runs on (Bun and Deno also report a Node version, so they are asked first). */
export function currentRuntime(): Runtime {
  return (found ??= detect(globalThis as RuntimeGlobals));
}

/**
 * Whether a timer started while serving one request may act for others: not on workerd, which runs a request's timers
 * only while it lives and lets only its own events write to its streams and sockets.
 */
export function timersServeAllRequests(): boolean {
  return currentRuntime() !== 'workerd';
}

function detect(host: RuntimeGlobals): Runtime {
  if (host.Bun !== undefined) return 'bun';
  if (host.Deno !== undefined) return 'deno';
  if (host.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (host.process?.versions?.node !== undefined) return 'node';
  return 'unknown';
}

/** The runtime's name as a reader knows it. */
export function runtimeName(): string {
  const names: Record<Runtime, string> = {
    node: 'Node.js',
    bun: 'Bun',
    deno: 'Deno',
    workerd: 'Cloudflare Workers (workerd)',
    unknown: 'this runtime',
  };
  return names[currentRuntime()];
}
