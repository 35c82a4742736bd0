import { clientAddress, forwardedFor, plainAddress, xForwardedFor } from '../../lib/http/forwarded-for';
import { trustedProxies } from '../../lib/http/ip-address';

describe('plainAddress', () => {
  it('drops ports, brackets and quotes, lower-cases IPv6 and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(plainAddress(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(plainAddress('192.0.2.1:8080')).toBe('192.0.2.1');
    expect(plainAddress('"[2001:DB8::17]:4711"')).toBe('2001:db8::17');
    expect(plainAddress('[::1]')).toBe('::1');
    expect(plainAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  it('keeps what names no address as it came, cut at 64 characters', () => {
    expect(plainAddress('unknown')).toBe('unknown');
    expect(plainAddress('_hidden')).toBe('_hidden');
    expect(plainAddress('x'.repeat(500))).toHaveLength(64);
  });
});

describe('xForwardedFor', () => {
  it('lists the hops, client first, joined headers and empty members handled', () => {
    expect(xForwardedFor('203.0.113.7, 10.0.0.2,10.0.0.3')).toEqual(['203.0.113.7', '10.0.0.2', '10.0.0.3']);
    expect(xForwardedFor(' , 198.51.100.1 ,')).toEqual(['198.51.100.1']);
    expect(xForwardedFor('')).toEqual([]);
  });
});

describe('forwardedFor', () => {
  it('reads the for of each element (RFC 7239 §4 examples), unknown where an element has none', () => {
    expect(forwardedFor('for="_gazonk"')).toEqual(['_gazonk']);
    expect(forwardedFor('For="[2001:db8:cafe::17]:4711"')).toEqual(['2001:db8:cafe::17']);
    expect(forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43')).toEqual(['192.0.2.60']);
    expect(forwardedFor('for=192.0.2.43, for=198.51.100.17')).toEqual(['192.0.2.43', '198.51.100.17']);
    expect(forwardedFor('proto=https, for=198.51.100.17')).toEqual(['unknown', '198.51.100.17']);
    expect(forwardedFor('host="a;b,c";for=192.0.2.9')).toEqual(['192.0.2.9']);
  });
});

describe('clientAddress', () => {
  const proxies = trustedProxies(['10.0.0.0/8', '2001:db8:1::/48']);
  const trusted = (address: string) => proxies(address);

  it('takes hops from the right while their writer is trusted', () => {
    expect(clientAddress('10.0.0.1', ['6.6.6.6', '203.0.113.7', '10.0.0.9'], trusted)).toBe('203.0.113.7');
    expect(clientAddress('2001:db8:1::5', ['203.0.113.8'], trusted)).toBe('203.0.113.8');
  });

  it('believes no header from a peer that is not a trusted proxy', () => {
    expect(clientAddress('198.51.100.4', ['6.6.6.6'], trusted)).toBe('198.51.100.4');
  });

  it('stops at the leftmost hop when every proxy is trusted', () => {
    expect(clientAddress('10.0.0.1', ['10.0.0.7'], trusted)).toBe('10.0.0.7');
  });

  it('trusts only the peer with a hop rule of one', () => {
    expect(clientAddress('192.0.2.1', ['6.6.6.6', '203.0.113.7'], (_address, hop) => hop === 0)).toBe('203.0.113.7');
  });
});

describe('trustedProxies', () => {
  it('matches IPv4 and IPv6 addresses and blocks', () => {
    const match = trustedProxies(['127.0.0.1', '172.16.0.0/12', '::1', 'fd00::/8']);
    expect(['127.0.0.1', '172.31.255.1', '::1', 'fd12::3'].map(match)).toEqual([true, true, true, true]);
    expect(['127.0.0.2', '172.32.0.1', '::2', 'fe80::1', 'unknown'].map(match)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('names an entry that is neither an address nor a block', () => {
    for (const entry of ['localhost', '10.0.0.0/33', '10.0.0.0/', '::/129', '1.2.3.4/8/8'])
      expect(() => trustedProxies([entry])).toThrow(`"${entry}" is neither an IP address nor a CIDR block`);
  });
});
