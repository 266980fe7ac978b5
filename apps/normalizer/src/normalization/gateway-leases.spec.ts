import { GatewayLeases } from './gateway-leases.js';

describe('GatewayLeases', () => {
  const timeout = 1_000;

  it('calls nobody gone before the replica has listened for one timeout (it may just have started)', () => {
    const leases = new GatewayLeases(timeout, 10_000);
    expect(leases.isExpired('gw-never-heard', 10_999)).toBe(false);
    expect(leases.isExpired('gw-never-heard', 11_000)).toBe(true);
  });

  it('expires a gateway silent for longer than the timeout, and revives it when it renews', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-1', 5_000);
    expect(leases.isExpired('gw-1', 6_000)).toBe(false);
    expect(leases.isExpired('gw-1', 6_001)).toBe(true);
    leases.renew('gw-1', 6_500);
    expect(leases.isExpired('gw-1', 7_000)).toBe(false);
  });

  it('forgets gateways silent for ten timeouts (then they count as never heard of: expired)', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-old', 1_000);
    leases.renew('gw-new', 11_500);
    leases.prune(11_500);
    expect(leases.isExpired('gw-old', 11_500)).toBe(true);
    expect(leases.isExpired('gw-new', 11_500)).toBe(false);
  });
});
