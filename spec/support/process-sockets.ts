/**
 * Test helper (Linux): which process holds the server side of a client's TCP connection, read from `/proc`, so a
 * spec can tell which worker of a cluster a connection landed on without asking the server.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inodes of the TCP connections whose remote end is `clientPort` (the server sides of that client). */
function serverSideInodes(clientPort: number): Set<string> {
  const inodes = new Set<string>();
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
      if (remotePort === clientPort) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** The pids of a process's children (its main thread's `children` list). */
export function childPids(pid: number): number[] {
  const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return listed ? listed.split(' ').map(Number) : [];
}

/** Which of `pids` holds the server side of the connection the client made from local port `clientPort`. */
export function pidServing(clientPort: number, pids: readonly number[]): number | undefined {
  const inodes = serverSideInodes(clientPort);
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
        return inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
      });
    } catch {
      return false;
    }
  });
}
