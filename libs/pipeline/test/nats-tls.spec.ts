import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { makeTestCertificates, type TestCertificates } from '@llm-stream/testing';
import { connectPipeline } from '../src/connect-pipeline.js';
import { startAuthorizedNats, type AuthorizedNats } from './support/authorized-nats.js';

/** TLS to NATS, once, with a CA the test makes: the server asks for a client certificate signed by it. */
describe('NATS over mutual TLS', () => {
  let certificates: TestCertificates;
  let nats: AuthorizedNats;
  let clientTls: { caFile: string; certFile: string; keyFile: string };

  beforeAll(async () => {
    certificates = await makeTestCertificates();
    clientTls = { caFile: certificates.caFile, certFile: certificates.clientCertFile, keyFile: certificates.clientKeyFile };
    nats = await startAuthorizedNats(['acme'], {
      server: { certFile: certificates.serverCertFile, keyFile: certificates.serverKeyFile, caFile: certificates.caFile },
      client: clientTls,
    });
  }, 60_000);

  afterAll(async () => {
    await nats.stop();
    certificates.remove();
  });

  it('a service connects with the CA and its client certificate, and finds the provisioned streams', async () => {
    const { user, password } = nats.credentials.platform.gateway;
    const nc = await connectPipeline({ servers: [nats.server.url], name: 'tls-test', user, password, tls: clientTls, maxReconnectAttempts: 0 });
    await expect((await jetstreamManager(nc)).getAccountInfo()).resolves.toMatchObject({ streams: 3 });
    expect(nc.info?.tls_required).toBe(true);
    await nc.close();
  });

  it('refuses a client that does not trust the CA, and one without a client certificate', async () => {
    const { user, password } = nats.credentials.platform.gateway;
    const base = { servers: nats.server.url, user, pass: password, maxReconnectAttempts: 0, reconnect: false };
    await expect(connect({ ...base, tls: {} })).rejects.toThrow();
    await expect(connect({ ...base, tls: { caFile: certificates.caFile } })).rejects.toThrow();
    await expect(connect(base)).rejects.toThrow();
  });
});
