import { describe, expect, it } from 'vitest';
import { NOT_AN_ADDRESS, clientAddress, countedAddress } from './client-address.ts';

describe('the address a call is counted for', () => {
  it('counts an IPv4 address as it is, also when it comes as IPv6', () => {
    expect(countedAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64 network, however it is written', () => {
    expect(countedAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(countedAddress('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(countedAddress('2001:db8:1:3::9')).toBe('2001:db8:1:3::/64');
  });

  it('counts an address without its port, and whatever is no address as one client', () => {
    expect(countedAddress('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(countedAddress('[2001:db8:1:2::9]:443')).toBe('2001:db8:1:2::/64');
    expect(countedAddress('[::ffff:203.0.113.7]')).toBe('203.0.113.7');
    for (const junk of ['unknown', 'a-word', '203.0.113.7:x', '203.0.113.7:1:2', '']) {
      expect(countedAddress(junk)).toBe(NOT_AN_ADDRESS);
    }
  });

  it('applies to the address Parse saw and to the one the /api facade passes', () => {
    expect(clientAddress({ ip: '2001:db8::1' })).toBe('2001:db8::/64');
    expect(clientAddress({ context: { clientIp: '2001:db8::1' } })).toBe('2001:db8::/64');
    expect(clientAddress({})).toBe('unknown');
    expect(clientAddress({ ip: '203.0.113.7:1000' })).toBe('203.0.113.7');
  });
});
