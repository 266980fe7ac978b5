import { REDACTED, SecretRedactor } from './secret-redactor.js';

const CANARY = 'sk-canary/9c8e1f3a7b2d4e6f';
const OTHER = 'AIzaOtherProviderKey0123456789';

/** `\uXXXX` for the characters at `positions` (hex in the given case), the rest as is. */
function unicodeEscaped(text: string, positions: (index: number) => boolean, upper: boolean): string {
  return Array.from(text)
    .map((character, index) => {
      if (!positions(index)) return character;
      const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor([CANARY, OTHER, 'short']);

  it.each([
    ['plain', CANARY],
    ['every character \\u-escaped, lowercase hex', unicodeEscaped(CANARY, () => true, false)],
    ['every character \\u-escaped, uppercase hex', unicodeEscaped(CANARY, () => true, true)],
    ['every other character \\u-escaped', unicodeEscaped(CANARY, (index) => index % 2 === 0, false)],
    ['one character \\u-escaped, uppercase', unicodeEscaped(CANARY, (index) => index === 5, true)],
    ['the slash as \\/', CANARY.replace('/', '\\/')],
    ['\\u-escaped inside a JSON string again (the backslashes escaped)', unicodeEscaped(CANARY, () => true, false).replace(/\\/g, '\\\\')],
    ['percent-encoded (encodeURIComponent)', encodeURIComponent(CANARY)],
    ['every byte percent-encoded, lowercase', [...Buffer.from(CANARY)].map((byte) => `%${byte.toString(16)}`).join('')],
    ['every byte percent-encoded, uppercase', [...Buffer.from(CANARY)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')],
    ['the second key, plain', OTHER],
  ])('removes the canary %s', (_form, echoed) => {
    const text = `{"error":{"message":"Incorrect API key provided: ${echoed}. Again: ${echoed}"}}`;
    const redacted = redactor.redact(text);
    expect(redacted).toBe(`{"error":{"message":"Incorrect API key provided: ${REDACTED}. Again: ${REDACTED}"}}`);
  });

  it.each([0, 1, 2, 3, 4, 5])('removes the canary base64-encoded inside a longer encoded text (%i bytes before it), in both alphabets', (before) => {
    const plain = Buffer.from(`${'x'.repeat(before)}key=${CANARY};rest`);
    for (const encoded of [plain.toString('base64'), plain.toString('base64url')]) {
      const redacted = redactor.redact(`data: {"blob":"${encoded}"}`);
      expect(redacted).toContain(REDACTED);
      // What is left decodes to no copy of the key, nor of any 8 characters of it.
      const rest = Buffer.from(redacted.replace(/^data: \{"blob":"|"\}$/g, '').split(REDACTED).join(''), 'base64').toString('latin1');
      for (let start = 0; start + 8 <= CANARY.length; start += 1) expect(rest).not.toContain(CANARY.slice(start, start + 8));
    }
  });

  it('leaves text without a secret as the very same string (frames stay byte-exact)', () => {
    const text = 'data: {"choices":[{"delta":{"content":"sk-canary is not the key"}}]}\n\n';
    expect(redactor.redact(text)).toBe(text);
  });

  it('ignores secrets shorter than 8 characters: they would match ordinary text', () => {
    expect(redactor.size).toBe(2);
    expect(redactor.redact('a short answer')).toBe('a short answer');
  });

  it('redacts every string of a JSON value, member names too, and returns the same value when nothing matched', () => {
    const clean = { messages: [{ role: 'user', content: 'hello' }] };
    expect(redactor.redactJson(clean)).toBe(clean);
    expect(redactor.redactJson({ messages: [{ role: 'user', content: `my key is ${CANARY}` }], [OTHER]: 1 })).toEqual({
      messages: [{ role: 'user', content: `my key is ${REDACTED}` }],
      [REDACTED]: 1,
    });
  });

  describe('redactCut (a text that ends where bytes were cut)', () => {
    /** A key with no `sk-` or `AIza` shape. */
    const KEY = 'route7Qx2LmN4pR8vT1wZ6yB3dF9';
    const cutting = new SecretRedactor([KEY]);
    const escapedTwice = Array.from(KEY, (character) => `\\\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

    it.each([
      ['plain', KEY, 1],
      ['\\u-escaped twice', escapedTwice, 7],
      ['every byte percent-encoded, lowercase', [...Buffer.from(KEY)].map((byte) => `%${byte.toString(16)}`).join(''), 3],
    ])('replaces the start of the key at the end, %s, from 8 characters on, even cut inside an escape', (_form, echoed, width) => {
      for (let kept = 8 * width; kept < echoed.length; kept += 1) {
        expect(cutting.redactCut(`{"message":"key ${echoed.slice(0, kept)}`)).toBe(`{"message":"key ${REDACTED}`);
      }
      expect(cutting.redactCut(`{"message":"key ${echoed.slice(0, 7 * width)}`)).toBe(`{"message":"key ${echoed.slice(0, 7 * width)}`);
    });

    it.each([0, 1, 2])('replaces the start of the key at the end of a base64 text (%i bytes before it)', (before) => {
      const encoded = Buffer.from(`${'x'.repeat(before)}key=${KEY};rest`).toString('base64');
      for (let kept = 20; kept < encoded.length; kept += 1) {
        const rest = cutting.redactCut(encoded.slice(0, kept)).split(REDACTED).join('');
        const decoded = Buffer.from(rest, 'base64').toString('latin1');
        for (let start = 0; start + 8 <= KEY.length; start += 1) expect(decoded).not.toContain(KEY.slice(start, start + 8));
      }
    });

    it('matches only at the end: a start of the key followed by other text is not a cut', () => {
      const text = `${KEY.slice(0, 12)} and more`;
      expect(cutting.redactCut(text)).toBe(text);
    });
  });

  it('takes secrets registered later (a route added at run time), once each', () => {
    const growing = new SecretRedactor();
    expect(growing.redact(CANARY)).toBe(CANARY);
    growing.register(CANARY);
    growing.register(CANARY);
    expect(growing.size).toBe(1);
    expect(growing.redact(`x${CANARY}x`)).toBe(`x${REDACTED}x`);
  });
});
