import { describe, expect, it } from 'vitest';
import { networkOf } from '../../api/src/identity/rate-limit';

describe('the network a client address counts as in per-address limits', () => {
  it('keeps IPv4 addresses whole, unwraps IPv4-mapped IPv6, and takes the /64 of IPv6 however it is written', () => {
    expect(networkOf('198.51.100.7')).toBe('198.51.100.7');
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    const one = networkOf('2001:db8:1:2::1');
    expect(one).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:0:0:0:abcd',
      '2001:db8:1:2::dead:beef',
    ])
      expect(networkOf(same)).toBe(one);
    expect(networkOf('2001:db8:1:3::1')).not.toBe(one);
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('2001:db8::')).toBe('2001:db8:0:0::/64');
  });
});
