/** Multipart benchmark: a 1 GB upload streamed to disk through rxrest vs plain busboy piping to disk, same run. */
import Busboy from 'busboy';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileUpload, Path, POST, Produces, resolveConfig, RestApplication, RestForm } from '../../lib';

@Path('bench')
class UploadBench {
  @POST
  @Produces('application/json')
  upload(@RestForm('file') file: FileUpload) {
    return { size: file.size };
  }
}

export interface MultipartBenchResult {
  readonly name: string;
  readonly bytes: number;
  readonly seconds: number;
  readonly mbPerSecond: number;
  readonly rssGrowthMb: number;
  /** CPU seconds of the whole process (client included, the same for both): steadier than MB/s on a busy disk. */
  readonly cpuSeconds: number;
}

const BOUNDARY = 'rxrest-bench-boundary';

/** Sends `bytes` of file content as one multipart part, generated on the fly (the client holds 1 MiB). */
function upload(port: number, path: string, bytes: number): Promise<number> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 97);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': head.length + bytes + tail.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const piece = sent + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function measure(name: string, bytes: number, run: () => Promise<number>): Promise<MultipartBenchResult> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const status = await run();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  if (status !== 200) throw new Error(`${name}: status ${status}`);
  return {
    name,
    bytes,
    seconds,
    mbPerSecond: bytes / 1e6 / seconds,
    rssGrowthMb: (peak - before) / 1e6,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

/** Plain busboy piping the file part to disk, no framework. */
function plainServer(dir: string) {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const bb = Busboy({ headers: req.headers });
    const writes: Promise<void>[] = [];
    bb.on('file', (_name, file) => writes.push(pipeline(file, createWriteStream(join(dir, 'plain.bin')))));
    bb.on('close', () => void Promise.all(writes).then(() => res.end('{}')));
    req.pipe(bb);
  });
}

/**
 * Runs both servers in this process (client and server share it: RSS growth is an upper bound for the server),
 * alternating them for `rounds` rounds so that disk cache and noise hit both alike.
 */
export async function runMultipartBench(bytes = 1024 ** 3, rounds = 2): Promise<MultipartBenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-mp-bench-'));
  try {
    const config = resolveConfig({
      overrides: {
        'framework.http.body.uploads-directory': dir,
        'framework.http.limits.max-body-size': '4G',
        'framework.log.level': 'WARN',
      },
    });
    const app = RestApplication.build({ classes: [UploadBench], config });
    const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const plain = plainServer(dir);
    await new Promise<void>((done) => plain.listen(0, '127.0.0.1', done));
    const plainPort = (plain.address() as { port: number }).port;
    const results: MultipartBenchResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      results.push(await measure(`busboy → disk (no framework) #${round}`, bytes, () => upload(plainPort, '/', bytes)));
      results.push(
        await measure(`rxrest @RestForm FileUpload #${round}`, bytes, () => upload(server.port, '/bench', bytes)),
      );
    }
    await server.close();
    await new Promise((done) => plain.close(done));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void runMultipartBench(Number(process.argv[2] ?? 1024 ** 3), Number(process.argv[3] ?? 2)).then((results) => {
    for (const r of results)
      process.stdout.write(
        `${r.name}: ${(r.bytes / 1e6).toFixed(0)} MB in ${r.seconds.toFixed(2)} s = ${r.mbPerSecond.toFixed(0)} MB/s, CPU ${r.cpuSeconds.toFixed(2)} s, RSS growth ${r.rssGrowthMb.toFixed(1)} MB\n`,
      );
    const total = (prefix: string, pick: (r: MultipartBenchResult) => number) =>
      results.filter((r) => r.name.startsWith(prefix)).reduce((sum, r) => sum + pick(r), 0);
    const ratio = total('busboy', (r) => r.seconds) / total('rxrest', (r) => r.seconds);
    process.stdout.write(`rxrest / busboy throughput over all rounds: ${ratio.toFixed(2)}×\n`);
  });
}
