import {
  controlSubjectStreamId,
  decodeCancelReply,
  decodeCancelRequest,
  decodeGatewayLease,
  decodeNormalizerPresence,
  decodeReaderNotice,
  encodeCancelReply,
  encodeCancelRequest,
  encodeGatewayLease,
  encodeNormalizerPresence,
  encodeReaderNotice,
  leaseSubjectGatewayId,
  presenceSubjectReplicaId,
} from './control-messages.js';
import { gatewayInstanceId, parseGatewayInstanceId } from './gateway-instance.js';
import { cancelSubject, gatewayLeaseSubject, normalizerPresenceSubject, readerSubject } from './subjects.js';

describe('control messages', () => {
  it('decode what their encoders write (the wire format the gateways already speak)', () => {
    expect(encodeCancelRequest({ tenant: 'acme' })).toBe('{"tenant":"acme"}');
    expect(decodeCancelRequest(encodeCancelRequest({ tenant: 'acme' }))).toEqual({ ok: true, value: { tenant: 'acme' } });
    expect(decodeCancelReply(encodeCancelReply({ ok: true }))).toEqual({ ok: true, value: { ok: true } });
    expect(encodeReaderNotice({ tenant: 'acme', action: 'detach' })).toBe('{"tenant":"acme","action":"detach"}');
    expect(decodeReaderNotice('{"tenant":"acme","action":"attach"}')).toEqual({ ok: true, value: { tenant: 'acme', action: 'attach' } });
    expect(decodeGatewayLease(encodeGatewayLease({ open_streams: 3 }))).toEqual({ ok: true, value: { open_streams: 3 } });
    expect(encodeNormalizerPresence({ adapters: 2 })).toBe('{"adapters":2}');
    expect(decodeNormalizerPresence('{"adapters":2}')).toEqual({ ok: true, value: { adapters: 2 } });
  });

  it.each([
    ['not JSON', () => decodeCancelRequest('{"tenant":'), 'cancel request is not JSON'],
    ['an array', () => decodeCancelRequest('["acme"]'), 'cancel request is not an object'],
    ['a tenant that is no subject token', () => decodeCancelRequest('{"tenant":"a.b"}'), 'cancel request has a missing or invalid tenant'],
    ['a reply that is not ok', () => decodeCancelReply('{"ok":false}'), 'cancel reply has a missing or invalid ok'],
    ['an unknown reader action', () => decodeReaderNotice('{"tenant":"acme","action":"peek"}'), 'reader notice has a missing or invalid action'],
    ['a negative stream count', () => decodeGatewayLease('{"open_streams":-1}'), 'gateway lease has a missing or invalid open_streams'],
    ['an adapters build that is no positive integer', () => decodeNormalizerPresence('{"adapters":"2"}'), 'normalizer presence has a missing or invalid adapters'],
  ])('refuse %s with a typed error that never quotes the message', (_what, decode, message) => {
    expect(decode()).toEqual({ ok: false, error: { code: 'invalid_control_message', message } });
  });

  it('read the stream id or gateway id back from their subjects, and nothing from other subjects', () => {
    expect(controlSubjectStreamId(cancelSubject('st_1'))).toBe('st_1');
    expect(controlSubjectStreamId(readerSubject('st_2'))).toBe('st_2');
    expect(controlSubjectStreamId('llm.control.cancel.st_1.extra')).toBeNull();
    expect(controlSubjectStreamId('llm.raw.acme.st_1')).toBeNull();
    expect(leaseSubjectGatewayId(gatewayLeaseSubject('gw-1@a1b2'))).toBe('gw-1@a1b2');
    expect(leaseSubjectGatewayId('llm.control.cancel.st_1')).toBeNull();
    expect(presenceSubjectReplicaId(normalizerPresenceSubject('nz-a1b2'))).toBe('nz-a1b2');
    expect(presenceSubjectReplicaId(gatewayLeaseSubject('gw-1'))).toBeNull();
  });
});

describe('gateway instance ids', () => {
  it('tell two processes with the same GATEWAY_ID apart, and keep the name readable', () => {
    const first = gatewayInstanceId({ name: 'gateway-0', instance: 'a1b2c3' });
    const restarted = gatewayInstanceId({ name: 'gateway-0', instance: 'd4e5f6' });
    expect(first).not.toBe(restarted);
    expect(parseGatewayInstanceId(first)).toEqual({ name: 'gateway-0', instance: 'a1b2c3' });
    expect(parseGatewayInstanceId('gateway-0')).toEqual({ name: 'gateway-0', instance: '' });
  });

  it('stay one NATS subject token', () => {
    expect(() => gatewayInstanceId({ name: 'a.b', instance: 'x' })).toThrow();
    expect(() => gatewayInstanceId({ name: 'a', instance: '' })).toThrow();
  });
});
