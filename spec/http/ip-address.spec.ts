import { BlockList, isIP as nodeIsIP } from 'node:net';
import { isIP, trustedProxies } from '../../lib/http/ip-address';

describe('isIP', () => {
  const samples = [
    '127.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.4 ',
    '',
    '::',
    '::1',
    '1::',
    'fe80::1%eth0',
    '2001:db8::',
    '2001:0db8:0000:0000:0000:0000:0000:0001',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':::1',
    '::ffff:192.0.2.1',
    '::ffff:192.0.2.256',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1.2.3.4',
    '1.2.3.4::',
    'g::1',
    '12345::1',
    '[::1]',
    'localhost',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1::8',
    'fe80::1%',
    'FE80::ABCD',
  ];

  it.each(samples)('answers %j as node:net does', (text) => {
    expect(isIP(text)).toBe(nodeIsIP(text));
  });
});

describe('trustedProxies', () => {
  const entries = ['10.0.0.0/8', '192.0.2.7', '198.51.100.0/31', '2001:db8::/32', '::1', 'fe80::/10', '172.16.0.0/12'];
  // Written the way Node shows its peers (IPv4-mapped IPv6), or trusting every address at once.
  const mappedEntries = ['::ffff:10.0.0.0/104', '::ffff:c000:207', '::ffff:0:0/96', '::/0', '::ffff:198.51.100.0/127'];
  const addresses = [
    '10.1.2.3',
    '11.0.0.1',
    '192.0.2.7',
    '192.0.2.8',
    '198.51.100.1',
    '198.51.100.2',
    '172.31.255.255',
    '172.32.0.0',
    '2001:db8:7::1',
    '2001:db9::1',
    '::1',
    '::2',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    '::ffff:10.1.2.3',
    '::ffff:a01:203',
    '::ffff:b00:1',
    '::ffff:c000:207',
    'not an address',
  ];

  /** Whether node:net's BlockList of `list` holds `address` (what the matcher is checked against). */
  function blockListOf(list: readonly string[]): (address: string) => boolean {
    const blocks = new BlockList();
    for (const entry of list) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const type = nodeIsIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) blocks.addAddress(address, type);
      else blocks.addSubnet(address, Number(bits), type);
    }
    return (address) => {
      const plain = address.replace(/%.*$/, '');
      const family = nodeIsIP(plain);
      return family !== 0 && blocks.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    };
  }

  it.each([
    ['IPv4 and IPv6 entries', entries],
    ['IPv4-mapped and all-address entries', mappedEntries],
  ])("matches as node:net's BlockList does, an IPv4 address and its IPv4-mapped form alike (%s)", (_, list) => {
    const expected = blockListOf(list);
    const trusted = trustedProxies(list);
    for (const address of addresses) expect([address, trusted(address)]).toEqual([address, expected(address)]);
  });

  it('refuses an entry that is neither an address nor a block, naming it', () => {
    for (const entry of ['10.0.0.0/33', 'proxy.local', '2001:db8::/129', '10.0.0.0/8/1', '10.0.0.0/x'])
      expect(() => trustedProxies([entry])).toThrow(`"${entry}" is neither an IP address nor a CIDR block`);
  });
});
