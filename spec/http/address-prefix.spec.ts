import { addressPrefix } from '../../lib/http/ip-address';

describe('addressPrefix', () => {
  it('cuts an IPv6 address to its network, however it is spelled', () => {
    expect(addressPrefix('2001:db8:7:1:aa::3', 64)).toBe('2001:db8:7:1::/64');
    expect(addressPrefix('2001:0db8:0007:0001:ffff:ffff:ffff:ffff', 64)).toBe('2001:db8:7:1::/64');
    expect(addressPrefix('2001:db8::', 64)).toBe('2001:db8:0:0::/64');
    expect(addressPrefix('::1', 64)).toBe('0:0:0:0::/64');
    expect(addressPrefix('64:ff9b::192.0.2.33', 96)).toBe('64:ff9b:0:0:0:0::/96');
  });

  it('keeps the bits of a prefix that ends inside a group', () => {
    expect(addressPrefix('2001:db8:abcd:12ff::1', 56)).toBe('2001:db8:abcd:1200::/56');
    expect(addressPrefix('2001:db8:abcd:12ff::1', 1)).toBe('0::/1');
    expect(addressPrefix('ffff::1', 1)).toBe('8000::/1');
  });

  it('leaves IPv4 addresses, names and a prefix of 128 as they are', () => {
    expect(addressPrefix('192.0.2.1', 64)).toBe('192.0.2.1');
    expect(addressPrefix('unknown', 64)).toBe('unknown');
    expect(addressPrefix('2001:db8::5', 128)).toBe('2001:db8::5');
  });
});
