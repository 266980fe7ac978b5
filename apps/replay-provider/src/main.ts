import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from './config.js';
import { RequestLog } from './request-log.js';
import { createRouter } from './router.js';
import { ScenarioStore } from './scenario-store.js';
import { ServedLog } from './served-log.js';
import { TranscriptStore } from './transcript-store.js';

// dist/main.js → <repo>/conformance/transcripts, wherever the repository is checked out.
const DEFAULT_TRANSCRIPTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../conformance/transcripts');

function logLine(stream: NodeJS.WriteStream, fields: Record<string, unknown>): void {
  stream.write(`${JSON.stringify(fields)}\n`);
}

const config = parseConfig(process.env, DEFAULT_TRANSCRIPTS_DIR);
if (!config.ok) {
  logLine(process.stderr, { level: 'error', msg: config.error.message, variable: config.error.variable });
  process.exit(1);
}
const { host, port, transcriptsDir, requiredApiKey, requestLogLimit, servedLogPath } = config.value;

const server = createServer(
  // Nagle off: each write leaves at once, so chunk boundaries and frame delays reach the client as planned.
  { noDelay: true },
  createRouter({
    transcripts: new TranscriptStore(transcriptsDir),
    scenarios: new ScenarioStore(),
    requestLog: new RequestLog(requestLogLimit),
    requiredApiKey,
    servedLog: servedLogPath === null ? null : new ServedLog(servedLogPath),
  }),
);

server.on('error', (error) => {
  logLine(process.stderr, { level: 'error', msg: `cannot listen on ${host}:${port}: ${error.message}` });
  process.exit(1);
});

server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  logLine(process.stdout, { msg: 'listening', url: `http://${urlHost}:${actualPort}` });
});

function shutdown(signal: string): void {
  // Stalled and hanging streams never end on their own: close every connection, not only idle ones.
  server.close(() => {
    logLine(process.stdout, { msg: 'closed', signal });
    process.exit(0);
  });
  server.closeAllConnections();
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    shutdown(signal);
  });
}
