// Links, a provider's origin and UriInfo name one origin behind trusted proxies, over real sockets and many forwarding
// header combinations: the one the forwarded-origin step moved the request's URL onto, which is what links once worked
// out again from the headers (requestOrigin on the URL as the client sent it; requestOrigin once more on the moved URL
// gives the same, so moving the URL changed no link).
import { request, Agent } from 'node:http';
import {
  Context,
  GET,
  InjectRestLinks,
  Path,
  Produces,
  RestApplication,
  RestLink,
  RestLinksProvider,
  UriInfo,
  type RunningServer,
} from '../../lib';
import { hostRules } from '../../lib/http/allowed-hosts';
import { trustedProxies } from '../../lib/http/ip-address';
import { requestOrigin, type ForwardingRules } from '../../lib/links/request-base-uri';
import { withServer } from '../support/app';
import { within } from '../support/until';

export class Note {
  id = '1';
}

@Path('notes')
class NoteResource {
  @GET
  @RestLink({ rel: 'list', entityType: Note })
  @InjectRestLinks()
  @Produces('application/json')
  list(
    @Context({ type: RestLinksProvider }) links: RestLinksProvider,
    @Context({ type: UriInfo }) uriInfo: UriInfo,
  ): { provider: string; uri: string } {
    return { provider: links.origin, uri: uriInfo.absolutePath.href };
  }
}

const TRUSTED = ['127.0.0.1', '10.0.0.0/8'];
const ALLOWED = ['127.0.0.1', 'api.example', '*.api.example', 'API.Example', '[::1]', 'xn--a'];

const CHAINS = [undefined, '203.0.113.9', '203.0.113.9, 10.0.0.2', '10.0.0.3, 10.0.0.2', '198.51.100.1, 203.0.113.9'];
const PROTOS = [undefined, 'https', 'http, https', 'https, http', 'HTTPS', 'ftp', ''];
const HOSTS = [
  undefined,
  'api.example',
  'evil.example, api.example',
  'API.Example:8443',
  'v2.api.example, evil.example',
  'bad host',
  'api.example:99999',
  '[::1]:8080',
  'xn--a',
  '999.999.999.999',
];
const PORTS = [undefined, '443', '80', '8443', '99999', 'x'];

/** Every combination of X-Forwarded-For, -Proto, -Host and -Port values above (absent ones left out). */
function xForwardedCombinations(): Record<string, string>[] {
  const all: Record<string, string>[] = [];
  for (const chain of CHAINS)
    for (const proto of PROTOS)
      for (const host of HOSTS)
        for (const port of PORTS) {
          const headers: Record<string, string> = {};
          if (chain !== undefined) headers['x-forwarded-for'] = chain;
          if (proto !== undefined) headers['x-forwarded-proto'] = proto;
          if (host !== undefined) headers['x-forwarded-host'] = host;
          if (port !== undefined) headers['x-forwarded-port'] = port;
          all.push(headers);
        }
  return all;
}

/** `Forwarded` values: each element from the lists above, one to three hops. */
function forwardedCombinations(): Record<string, string>[] {
  const elements: string[] = [];
  for (const proto of PROTOS)
    for (const host of HOSTS) {
      const pairs = ['for=203.0.113.9'];
      if (proto) pairs.push(`proto=${proto}`);
      if (host !== undefined) pairs.push(`host="${host}"`);
      elements.push(pairs.join(';'));
    }
  const all: Record<string, string>[] = [{}];
  elements.forEach((element, n) => {
    all.push({ forwarded: element });
    all.push({ forwarded: `${element}, for=10.0.0.2;host=internal.example;proto=http` });
    all.push({ forwarded: `${elements[(n * 7) % elements.length]!}, ${element}` });
  });
  return all;
}

interface Seen {
  readonly link: string | undefined;
  readonly provider: string;
  readonly uri: string;
}

function get(server: RunningServer, agent: Agent, headers: Record<string, string>): Promise<Seen> {
  return within(
    new Promise((resolve, reject) => {
      const sent = request(`${server.url}/notes`, { headers, agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          if (response.statusCode !== 200)
            return reject(new Error(`${response.statusCode} for ${JSON.stringify(headers)}`));
          const { provider, uri } = JSON.parse(body) as { provider: string; uri: string };
          resolve({ link: response.headers.link as string | undefined, provider, uri });
        });
      });
      sent.on('error', reject);
      sent.end();
    }),
    'the answer to GET /notes',
  );
}

/** What links were made with before the URL was moved, and what they would be made with again on the moved URL. */
function expected(server: RunningServer, headers: Record<string, string>, rules: ForwardingRules) {
  const allows = hostRules(ALLOWED, undefined)!.allows;
  const source = { url: `${server.url}/notes`, headers: new Headers(headers), peer: '127.0.0.1' };
  const origin = requestOrigin(source, rules, allows);
  const again = requestOrigin({ ...source, url: `${origin}/notes` }, rules, allows);
  return { origin, again };
}

describe.each(['x-forwarded-for', 'forwarded'] as const)('the origin of links behind proxies writing %s', (header) => {
  it('is the origin of the moved request URL, as requestOrigin gives it, for every header combination', async () => {
    const app = RestApplication.build({
      classes: [NoteResource],
      overrides: {
        'framework.http.proxy.proxy-address-forwarding': 'true',
        'framework.http.proxy.client-address-header': header,
        'framework.http.proxy.trusted-proxies': TRUSTED.join(','),
        'framework.http.allowed-hosts': ALLOWED.join(','),
      },
    });
    const rules: ForwardingRules = { header, trusted: trustedProxies(TRUSTED) };
    const combinations = header === 'forwarded' ? forwardedCombinations() : xForwardedCombinations();
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const mismatches: string[] = [];
    let moved = 0;
    await withServer(app, async (server) => {
      for (let start = 0; start < combinations.length; start += 8) {
        const batch = combinations.slice(start, start + 8);
        const seen = await Promise.all(batch.map((headers) => get(server, agent, headers)));
        batch.forEach((headers, n) => {
          const { origin, again } = expected(server, headers, rules);
          if (origin !== server.url) moved++;
          const made = { link: seen[n]!.link, provider: seen[n]!.provider, uri: seen[n]!.uri, again };
          const wanted = {
            link: `<${origin}/notes>; rel="list"`,
            provider: origin,
            uri: `${origin}/notes`,
            again: origin,
          };
          if (JSON.stringify(made) !== JSON.stringify(wanted))
            mismatches.push(`${JSON.stringify(headers)}: ${JSON.stringify(made)} ≠ ${JSON.stringify(wanted)}`);
        });
      }
    });
    agent.destroy();
    expect(mismatches.slice(0, 5)).toEqual([]);
    // Most combinations move the URL: the comparison is not over requests that were never forwarded.
    expect(moved).toBeGreaterThan(combinations.length / 3);
  }, 120_000);
});
