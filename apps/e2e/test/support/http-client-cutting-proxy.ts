import { createServer, connect, type Server, type Socket } from 'node:net';

/** How a connection through the proxy ends: after `afterBytes` from the gateway, closed (FIN) or reset (RST). */
export interface Cut {
  readonly afterBytes: number;
  readonly how: 'close' | 'reset';
}

/**
 * A TCP proxy in front of a gateway that cuts connections mid-response: each connection gets the plan's cut
 * (or none), the bytes from the gateway up to it are forwarded (with backpressure, so a slow reader stays
 * slow), then both sides are closed or reset. A cut at any byte count lands anywhere: inside the headers, an
 * SSE record or a multi-byte character.
 */
export class CuttingProxy {
  private readonly sockets = new Set<Socket>();
  private opened = 0;
  private cutCount = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string, plan: (connection: number) => Cut | undefined): Promise<CuttingProxy> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
    const proxy = new CuttingProxy(server, `http://127.0.0.1:${String(address.port)}`);
    server.on('connection', (client) => {
      proxy.relay(client, connect(Number(port), hostname), plan(proxy.opened++));
    });
    return proxy;
  }

  /** Connections accepted and connections cut so far. */
  get stats(): { connections: number; cuts: number } {
    return { connections: this.opened, cuts: this.cutCount };
  }

  /** Stops accepting connections (a new one is refused); the open ones go on until their cut. */
  refuseNew(): void {
    this.server.close();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => { resolve(); }));
  }

  private relay(client: Socket, upstream: Socket, cut: Cut | undefined): void {
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    let forwarded = 0;
    upstream.on('data', (chunk: Buffer) => {
      const room = cut === undefined ? chunk.length : cut.afterBytes - forwarded;
      const piece = room < chunk.length ? chunk.subarray(0, Math.max(0, room)) : chunk;
      forwarded += piece.length;
      if (piece === chunk) {
        if (!client.write(chunk)) {
          upstream.pause();
          client.once('drain', () => upstream.resume());
        }
        return;
      }
      this.cutCount += 1;
      upstream.pause();
      upstream.removeAllListeners('data');
      client.write(piece, () => {
        if (cut?.how === 'reset') client.resetAndDestroy();
        else client.destroy();
        upstream.destroy();
      });
    });
    upstream.on('end', () => client.end());
  }
}
