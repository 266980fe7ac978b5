import { connect } from 'node:net';

/**
 * One request/reply over the raw NATS text protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol):
 * CONNECT, SUB an inbox, PUB with that reply subject, read the single MSG back. This library may not depend on a
 * NATS client, and the JetStream API is plain request/reply, so this is all the specs need to create a stream and
 * publish to it.
 */
export function natsRequest(port: number, subject: string, payload: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const inbox = `_INBOX.spec${Math.random().toString(36).slice(2)}`;
    let buffer = Buffer.alloc(0);
    let sent = false;
    const timer = setTimeout(() => {
      finish(new Error(`no reply to ${subject} within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (outcome: Error | string): void => {
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) {
        reject(outcome);
      } else {
        resolve(outcome);
      }
    };
    socket.on('error', finish);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) {
          return;
        }
        const line = buffer.subarray(0, lineEnd).toString('utf8');
        if (line.startsWith('MSG ')) {
          const size = Number(line.split(' ').at(-1));
          if (buffer.length < lineEnd + 2 + size + 2) {
            return;
          }
          finish(buffer.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8'));
          return;
        }
        buffer = buffer.subarray(lineEnd + 2);
        if (line.startsWith('-ERR')) {
          finish(new Error(line));
          return;
        }
        if (line === 'PING') {
          socket.write('PONG\r\n');
        } else if (line.startsWith('INFO ') && !sent) {
          sent = true;
          const body = Buffer.from(payload, 'utf8');
          socket.write(
            `CONNECT {"verbose":false,"pedantic":false,"protocol":1}\r\nSUB ${inbox} 1\r\nPUB ${subject} ${inbox} ${body.length}\r\n`,
          );
          socket.write(Buffer.concat([body, Buffer.from('\r\n')]));
        }
      }
    });
  });
}
