/**
 * Test helper (Linux): which process holds the server side of a client's TCP connection, read from `/proc`, so a
 * spec can tell which worker of a cluster a connection landed on without asking the server.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inode of each TCP connection's end, by that connection's remote port (the server side of a client). */
function inodesByRemotePort(): Map<number, string[]> {
  const inodes = new Map<number, string[]>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remotePort = Number.parseInt(fields[2]!.split(':')[1]!, 16);
      inodes.set(remotePort, [...(inodes.get(remotePort) ?? []), fields[9]!]);
    }
  }
  return inodes;
}

/** Which of `pids` holds each socket inode. */
function holdersOfInodes(pids: readonly number[]): Map<string, number> {
  const holders = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // The process ended.
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
      } catch {
        // This descriptor closed while listed: only it is skipped, not the rest of the process's (a busy worker
        // opens and closes descriptors all the time, and one of them made a whole worker's connections unseen).
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) holders.set(inode, pid);
    }
  }
  return holders;
}

/** The pids of a process's children (its main thread's `children` list). */
export function childPids(pid: number): number[] {
  const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return listed ? listed.split(' ').map(Number) : [];
}

/** Which of `pids` holds the server side of the connection the client made from local port `clientPort`. */
export function pidServing(clientPort: number, pids: readonly number[]): number | undefined {
  return new ConnectionHolders(pids).of(clientPort);
}

/**
 * Which of `pids` holds the server side of each client connection, read from /proc once for many connections: a
 * loaded machine's table of TCP connections can hold tens of thousands of rows (a tenth of a second a read), and a
 * client reading it once per answer starves its own event loop past the server's keep-alive timeout.
 */
export class ConnectionHolders {
  #holders = new Map<number, number>();

  constructor(private readonly pids: readonly number[]) {}

  /** The holder of the connection from `clientPort`, read again from /proc only when it is not known yet. */
  of(clientPort: number): number | undefined {
    if (!this.#holders.has(clientPort)) this.#read();
    return this.#holders.get(clientPort);
  }

  #read(): void {
    // Read whole each time: a port known from before may carry another connection now.
    this.#holders = new Map();
    const holders = holdersOfInodes(this.pids);
    for (const [port, inodes] of inodesByRemotePort()) {
      const pid = inodes.map((inode) => holders.get(inode)).find((holder) => holder !== undefined);
      if (pid !== undefined) this.#holders.set(port, pid);
    }
  }
}
