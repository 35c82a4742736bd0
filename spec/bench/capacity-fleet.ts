/**
 * The clients of the capacity bench and spec: several processes (`capacity-client.ts`), each holding its share of
 * the connections from a loopback source address of its own (127.0.0.2, 127.0.0.3, ...), so that neither a
 * process's open-file limit nor the ephemeral ports of one address run out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ClientCommand, ClientReply } from './capacity-client';
import { scriptArguments } from './child-server';

export type Transport = 'sse' | 'ws';

/** The transports a capacity run measures: both, or those named in `BENCH_CAPACITY` (`ws`, `sse`, `sse,ws`). */
export function benchTransports(): readonly Transport[] {
  const named = process.env.BENCH_CAPACITY?.split(',');
  return (['sse', 'ws'] as const).filter((transport) => named === undefined || named.includes(transport));
}

/** What the clients together see. */
export interface FleetStatus {
  readonly open: number;
  /** Connections that heard from the server (a keep-alive, a ping, an event) within the time asked. */
  readonly heard: number;
  /** Connections that got at least one event. */
  readonly events: number;
}

export interface Fleet {
  /** Opens `count` more connections, shared out over the clients; resolves with how long it took and what failed. */
  open(count: number): Promise<{ ms: number; open: number; failed: number; error?: string }>;
  status(heardWithinMs: number): Promise<FleetStatus>;
  /** Waits (up to `timeoutMs`) until every open connection got an event; with the latest arrival after publication. */
  events(timeoutMs: number): Promise<{ open: number; events: number; lastEventMs: number }>;
  close(): Promise<void>;
}

function ask<R extends ClientReply>(client: ChildProcess, command: ClientCommand): Promise<R> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a capacity client exited with ${code}`));
    client.once('exit', exited);
    client.once('message', (reply: R) => {
      client.off('exit', exited);
      resolve(reply);
    });
    client.send(command);
  });
}

/** `count` split into `parts` whole shares differing by one at most. */
function shares(count: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(count / parts) + (i < count % parts ? 1 : 0));
}

/** Starts `clients` client processes for `path` on `port`, one loopback address each, from 127.0.0.`first` on. */
export function startFleet(transport: Transport, port: number, path: string, clients = 4, first = 2): Fleet {
  const processes = Array.from({ length: clients }, (_, i) =>
    spawn(
      process.execPath,
      [...scriptArguments('capacity-client'), transport, String(port), path, `127.0.0.${first + i}`],
      { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    ),
  );
  const all = <R extends ClientReply>(commands: readonly ClientCommand[]) =>
    Promise.all(processes.map((client, i) => ask<R>(client, commands[i]!)));
  const sum = <R>(replies: readonly R[], pick: (reply: R) => number) =>
    replies.reduce((total, reply) => total + pick(reply), 0);
  return {
    async open(count) {
      const started = performance.now();
      const replies = await all<Extract<ClientReply, { type: 'opened' }>>(
        shares(count, clients).map((share) => ({ type: 'open', count: share })),
      );
      const error = replies.find((reply) => reply.error !== undefined)?.error;
      const open = sum(replies, (reply) => reply.open);
      return { ms: performance.now() - started, open, failed: sum(replies, (reply) => reply.failed), error };
    },
    async status(heardWithinMs) {
      const replies = await all<Extract<ClientReply, { type: 'status' }>>(
        processes.map(() => ({ type: 'status', heardWithinMs })),
      );
      return {
        open: sum(replies, (reply) => reply.open),
        heard: sum(replies, (reply) => reply.heard),
        events: sum(replies, (reply) => reply.events),
      };
    },
    async events(timeoutMs) {
      const replies = await all<Extract<ClientReply, { type: 'events' }>>(
        processes.map(() => ({ type: 'events', timeoutMs })),
      );
      return {
        open: sum(replies, (reply) => reply.open),
        events: sum(replies, (reply) => reply.events),
        lastEventMs: Math.max(...replies.map((reply) => reply.lastEventMs)),
      };
    },
    async close() {
      await Promise.all(
        processes.map(
          (client) =>
            new Promise<void>((resolve) => {
              if (client.exitCode !== null || client.signalCode !== null) return resolve();
              client.once('exit', () => resolve());
              client.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
