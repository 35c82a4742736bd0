// A path template with variables apart by a literal in one segment matches a request path without backtracking, over
// a real socket. Compiled to lazy `([^/]+?)` groups, `tags/{owner}-{repo}-{tag}` made a regular expression that
// backtracked cubically on a path of dashes that does not match: one GET of a 4,000-character path held the event loop
// 6.7 s (8,000, within Node's 16 KB request line: about a minute), every other request of the process waiting. What
// each variable binds does not change: the shortest that lets the rest match.
import { GET, Path, RestApplication, RestPath, type RunningServer } from '../../lib';

@Path('tags/{owner}-{repo}-{tag}')
class Tags {
  @GET
  get(@RestPath() owner: string, @RestPath() repo: string, @RestPath() tag: string): string {
    return `${owner}|${repo}|${tag}`;
  }
}

@Path('files/{name}.{ext}')
class Files {
  @GET
  get(@RestPath() name: string, @RestPath() ext: string): string {
    return `${name}|${ext}`;
  }
}

// The class path's shared segment beside a method path with a regex of its own: one template as they join.
@Path('releases/{owner}-{repo}-{tag}')
class Releases {
  @GET
  @Path('{build: \\d+}')
  get(@RestPath() repo: string, @RestPath() build: string): string {
    return `${repo}|${build}`;
  }
}

// Two {name}s beside a regex of its own in one segment: the regex is run on one variable's candidate text at a time.
@Path('labels/{owner}-{repo}-{label: [a-z-]+}')
class Labels {
  @GET
  get(@RestPath() repo: string, @RestPath() label: string): string {
    return `${repo}|${label}`;
  }
}

// The same beside a regex that may match '/': the whole path is searched, each {name} within its segment.
@Path('trees/{owner}-{repo}-{ref}/{path: .+}')
class Trees {
  @GET
  get(@RestPath() ref: string, @RestPath() path: string): string {
    return `${ref}|${path}`;
  }
}

// Variables with the commonest regex of their own, "anything but a slash": a negated class, not an anchor.
@Path('archives/{owner: [^/]+}-{repo: [^/]+}-{tag: [^/]+}.zip')
class Archives {
  @GET
  get(@RestPath() owner: string, @RestPath() repo: string, @RestPath() tag: string): string {
    return `${owner}|${repo}|${tag}`;
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await RestApplication.build({ classes: [Tags, Files, Releases, Labels, Trees, Archives] }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

const get = async (path: string) => {
  const answer = await fetch(`${server.url}${path}`);
  return [answer.status, await answer.text()];
};

describe('a path template with several variables in a segment', () => {
  it('binds each variable as before: the shortest that lets the rest match', async () => {
    expect(await get('/tags/ada-engine-v1-2')).toEqual([200, 'ada|engine|v1-2']);
    expect(await get('/files/report.2026.pdf')).toEqual([200, 'report|2026.pdf']);
    expect(await get('/releases/ada-engine-v1-2/17/')).toEqual([200, 'engine|17']);
    expect(await get('/labels/ada-engine-good-first-issue')).toEqual([200, 'engine|good-first-issue']);
    expect(await get('/trees/ada-engine-v1-2/src/main.ts')).toEqual([200, 'v1-2|src/main.ts']);
    expect(await get('/archives/ada-engine-v1-2.zip')).toEqual([200, 'ada-engine|v1|2']);
  });

  it('answers a crafted path that does not match at once, and the others meanwhile', async () => {
    const started = performance.now();
    const crafted = [
      fetch(`${server.url}/tags/${'a-'.repeat(4000)}/x`),
      fetch(`${server.url}/files/${'a.'.repeat(4000)}/x`),
      fetch(`${server.url}/releases/${'a-'.repeat(4000)}/x`),
      fetch(`${server.url}/labels/${'a-'.repeat(4000)}1`),
      fetch(`${server.url}/trees/${'a-'.repeat(4000)}/`),
      // As one regular expression, 3,000 dashes held the event loop 7 s.
      fetch(`${server.url}/archives/${'-'.repeat(3000)}`),
    ];
    expect(await get('/tags/a-b-c')).toEqual([200, 'a|b|c']);
    expect((await Promise.all(crafted)).map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    // Milliseconds when matched in linear time; the backtracking regular expression took seconds (7 s on /releases).
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
