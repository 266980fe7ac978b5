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

describe('GatewayLeases judged by evidence', () => {
  const timeout = 1_000;

  it('does not expire a gateway whose stream still grows (a busy gateway late with its lease)', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-busy', 1_000);
    expect(leases.isExpired('gw-busy', 3_000, 2_500)).toBe(false);
    expect(leases.isExpired('gw-busy', 3_501, 2_500)).toBe(true);
  });

  it('counts silence only from three timeouts after its own reconnect (a NATS restart silenced everybody)', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-1', 1_000);
    leases.unheard(4_000);
    expect(leases.isExpired('gw-1', 6_900)).toBe(false);
    expect(leases.isExpired('gw-1', 7_001)).toBe(true);
  });

  it('expires nobody while the server does not answer a round trip, and restarts the count after a late answer', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-1', 1_000);
    leases.probeStarted(2_000);
    expect(leases.isExpired('gw-1', 2_200)).toBe(true);
    expect(leases.isExpired('gw-1', 2_300)).toBe(false);
    expect(leases.isExpired('gw-1', 8_000)).toBe(false);
    leases.probeAnswered(8_000, true);
    expect(leases.isExpired('gw-1', 8_999)).toBe(false);
    expect(leases.isExpired('gw-1', 9_001)).toBe(true);
    leases.renew('gw-1', 8_900);
    expect(leases.isExpired('gw-1', 9_800)).toBe(false);
    expect(leases.isExpired('gw-1', 9_901)).toBe(true);
  });

  it('counts silence after three timeouts when a round trip failed (the connection is in doubt, as at a reconnect)', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-1', 1_000);
    leases.probeStarted(2_000);
    leases.probeAnswered(2_010, false);
    expect(leases.isExpired('gw-1', 5_009)).toBe(false);
    expect(leases.isExpired('gw-1', 5_011)).toBe(true);
  });

  it('keeps counting after a prompt answer', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.renew('gw-1', 1_000);
    leases.probeStarted(1_500);
    expect(leases.probeAnswered(1_510, true)).toBe(false);
    expect(leases.isExpired('gw-1', 2_001)).toBe(true);
  });

  it('says when an answer postponed every expiry: a late one, or a failed one however quick', () => {
    const leases = new GatewayLeases(timeout, 0);
    leases.probeStarted(1_000);
    expect(leases.probeAnswered(1_251, true)).toBe(true);
    leases.probeStarted(5_000);
    expect(leases.probeAnswered(5_010, false)).toBe(true);
    leases.probeStarted(9_000);
    expect(leases.probeAnswered(9_250, true)).toBe(false);
  });
});
