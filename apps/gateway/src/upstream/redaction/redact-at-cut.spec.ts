import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UnstampedRecord } from '@llm-stream/adapters';
import { UpstreamAttempt, type AttemptHooks } from '../upstream-attempt.js';
import type { UpstreamPlan } from '../upstream-plan.js';
import { redactRecord } from './redact-record.js';
import { REDACTED, SecretRedactor } from './secret-redactor.js';

/** A provider key with no `sk-` or `AIza` shape: only the gateway's own redaction can catch it. */
const KEY = 'route7Qx2LmN4pR8vT1wZ6yB3dF9';
const MAX_ERROR_BODY_BYTES = 65_536;
const SETTINGS = { connectTimeoutMs: 5_000, idleTimeoutMs: 30_000, progressTimeoutMs: 30_000, maxFrameBytes: 1_048_576, maxErrorBodyBytes: MAX_ERROR_BODY_BYTES };

/** The key in each form the redaction knows, as a provider would echo it inside a JSON string. */
const FORMS: readonly (readonly [string, string])[] = [
  ['plain', KEY],
  ['\\u-escaped', Array.from(KEY, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['percent-encoded', Array.from(Buffer.from(KEY), (byte) => `%${byte.toString(16).toUpperCase()}`).join('')],
];

/** What a provider sends: the status, then the body as written before it ends or breaks the connection. */
interface Reply {
  readonly status: number;
  readonly body: string;
  readonly ending: 'ends' | 'breaks';
}

/** A provider on loopback answering every request with the current reply. */
class CuttingProvider {
  reply: Reply = { status: 200, body: '', ending: 'ends' };
  private readonly server: Server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    const { status, body, ending } = this.reply;
    response.writeHead(status, { 'content-type': status >= 400 ? 'application/json' : 'text/event-stream' });
    if (ending === 'ends') {
      response.end(body);
      return;
    }
    // The body so far reaches the client, then the connection breaks with no clean end.
    response.write(body, () => {
      response.socket?.destroy();
    });
  });

  async listen(): Promise<URL> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return new URL(`http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}/v1/chat/completions`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}

/** Hooks like the stream runner's: every record redacted (redactRecord) as it is built. */
function redactingHooks(redactor: SecretRedactor): { hooks: AttemptHooks; records: UnstampedRecord[] } {
  const records: UnstampedRecord[] = [];
  return {
    records,
    hooks: {
      record: (record) => records.push(redactRecord(record, redactor)),
      standing: () => 'open',
      lastProgressTs: () => undefined,
    },
  };
}

/** The text with every escape of the known forms decoded, so that a key prefix shows whatever its form. */
function decoded(text: string): string {
  return text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The longest start of KEY (8 characters or more) the records still hold, decoded; '' when none. */
function longestKeyPrefix(records: readonly UnstampedRecord[]): string {
  const texts = records.flatMap((record) => (record.kind === 'frame' ? [record.text] : record.kind === 'upstream.response' && record.body !== undefined ? [record.body] : []));
  for (let length = KEY.length; length >= 8; length -= 1) {
    if (texts.some((text) => decoded(text).includes(KEY.slice(0, length)))) return KEY.slice(0, length);
  }
  return '';
}

describe('a provider key cut where the gateway cuts bytes (a real HTTP server on loopback, records as the runner redacts them)', () => {
  const redactor = new SecretRedactor([KEY]);
  const provider = new CuttingProvider();
  let plan: UpstreamPlan;

  beforeAll(async () => {
    const url = await provider.listen();
    plan = { url, headers: { 'content-type': 'application/json' }, body: '{}', model: 'gpt', route: 'openai-chat', secret: KEY };
  });

  afterAll(async () => {
    await provider.close();
  });

  describe.each(FORMS)('echoed %s', (_form, echoed) => {
    // Cut after 8 characters of the key, one byte into the next one's form, in the middle, one character short.
    const width = echoed.length / KEY.length;
    const cuts = [8 * width, 8 * width + 1, 12 * width, (KEY.length - 1) * width];

    it.each(cuts)('loses no start of 8 characters or more when the error body is cut at 65,536 bytes (%i bytes of it kept)', async (kept) => {
      const before = '{"error":{"message":"Incorrect API key provided: ';
      const body = `${before}${'x'.repeat(MAX_ERROR_BODY_BYTES - before.length - kept)}${echoed}","type":"invalid_request_error"}}`;
      provider.reply = { status: 400, body, ending: 'ends' };
      const { hooks, records } = redactingHooks(redactor);
      await new UpstreamAttempt(1, plan, SETTINGS, hooks).run();

      const response = records.find((record) => record.kind === 'upstream.response');
      expect(response).toMatchObject({ status: 400, body: expect.stringMatching(new RegExp(`x${escapeRegExp(REDACTED)}$`)) as unknown });
      expect(longestKeyPrefix(records)).toBe('');
    });

    it.each(cuts)('loses no start of 8 characters or more in the partial frame kept when the connection breaks (%i bytes of it kept)', async (kept) => {
      const whole = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n';
      provider.reply = { status: 200, body: `${whole}data: {"choices":[{"delta":{"content":"your key: ${echoed.slice(0, kept)}`, ending: 'breaks' };
      const { hooks, records } = redactingHooks(redactor);
      await new UpstreamAttempt(1, plan, SETTINGS, hooks).run();

      expect(records.map((record) => record.kind)).toEqual(['upstream.response', 'frame', 'frame', 'attempt.end']);
      expect(records[1]).toEqual({ kind: 'frame', attempt: 1, text: whole });
      expect(records[2]).toEqual({ kind: 'frame', attempt: 1, text: `data: {"choices":[{"delta":{"content":"your key: ${REDACTED}`, partial: true });
      expect(records[3]).toMatchObject({ kind: 'attempt.end', reason: 'transport_error' });
      expect(longestKeyPrefix(records)).toBe('');
    });
  });

  it('keeps a start shorter than 8 characters, and a body that ends with no key, as received', async () => {
    const body = `{"error":{"message":"ends with ${KEY.slice(0, 7)}`;
    provider.reply = { status: 400, body, ending: 'ends' };
    const { hooks, records } = redactingHooks(redactor);
    await new UpstreamAttempt(1, plan, SETTINGS, hooks).run();
    expect(records.find((record) => record.kind === 'upstream.response')).toMatchObject({ body });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
