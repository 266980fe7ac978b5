import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerCleanup } from './process-cleanup.js';
import { runCommandOrThrow } from './run-command.js';
import { makeTempDir } from './temp-dir.js';

/** PEM files of a CA made for one test run: a server certificate for 127.0.0.1 and a client certificate, both signed by it. */
export interface TestCertificates {
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** Removes the files (also done when the test process exits). */
  remove(): void;
}

async function openssl(args: readonly string[]): Promise<void> {
  await runCommandOrThrow('openssl', args);
}

/** Signs a new EC key's certificate for `subject` with the CA; `extensions` is an openssl extension section. */
async function issue(dir: string, name: string, subject: string, extensions: string): Promise<void> {
  const extFile = join(dir, `${name}.ext`);
  writeFileSync(extFile, `${extensions}\n`);
  const key = join(dir, `${name}-key.pem`);
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key]);
  await openssl(['req', '-new', '-key', key, '-subj', subject, '-out', join(dir, `${name}.csr`)]);
  await openssl([
    'x509', '-req', '-in', join(dir, `${name}.csr`), '-CA', join(dir, 'ca.pem'), '-CAkey', join(dir, 'ca-key.pem'),
    '-CAcreateserial', '-days', '2', '-sha256', '-extfile', extFile, '-out', join(dir, `${name}.pem`),
  ]);
}

/**
 * A throwaway CA and the certificates a TLS test needs (openssl on PATH): the server's, valid for 127.0.0.1
 * and localhost (the name nats.js checks), and a client's for mutual TLS. Nothing is trusted beyond the test that made them.
 */
export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = makeTempDir('tls');
  const cleanup = registerCleanup({ removePaths: [dir] });
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', join(dir, 'ca-key.pem')]);
  await openssl(['req', '-x509', '-new', '-key', join(dir, 'ca-key.pem'), '-subj', '/CN=llm-stream test CA', '-days', '2', '-sha256', '-out', join(dir, 'ca.pem')]);
  await issue(dir, 'server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth');
  await issue(dir, 'client', '/CN=llm-stream test client', 'extendedKeyUsage=clientAuth');
  return {
    caFile: join(dir, 'ca.pem'),
    serverCertFile: join(dir, 'server.pem'),
    serverKeyFile: join(dir, 'server-key.pem'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client-key.pem'),
    remove: () => {
      cleanup.release();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
