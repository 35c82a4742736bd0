import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, describeContract } from './support/contract';
import { describeFeatures } from './support/features';
import { BIN, ROOT } from './support/runtime-server';

describeContract('bun', (server) => {
  it("keeps a stream quieter than Bun's idle timeout open to its end", async () => {
    const answer = await call(`${server().url}/contract/quiet`, { headers: { accept: 'text/event-stream' } });
    expect(answer.body.toString().match(/^data:.*$/gm)).toEqual(['data:0', 'data:1']);
  }, 15_000);
});

describe('an application Bun compiles without experimentalDecorators', () => {
  it('fails to start with a message naming experimentalDecorators, instead of serving nothing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'rxrest-bun-tc39-'));
    try {
      // What `bun init` writes: no experimentalDecorators, so Bun runs standard (TC39) decorators.
      await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
      await writeFile(
        join(folder, 'app.ts'),
        `import { GET, Path, RestApplication } from ${JSON.stringify(join(ROOT, 'lib'))};
@Path('/hello')
class Hello {
  @GET
  hello() { return 'hello'; }
}
RestApplication.build({ classes: [Hello] });
console.log('built');
`,
      );
      const outcome = await new Promise<{ code: number | null; output: string }>((done) =>
        execFile(join(BIN, 'bun'), ['app.ts'], { cwd: folder }, (error, stdout, stderr) =>
          done({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
        ),
      );
      expect(outcome.code).not.toBe(0);
      expect(outcome.output).not.toContain('built');
      expect(outcome.output).toContain('"experimentalDecorators": true');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 30_000);
});

describeFeatures('bun');
