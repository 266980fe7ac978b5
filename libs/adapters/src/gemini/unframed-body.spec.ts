import type { SseFrame } from '../sse/sse-frame.js';
import { createSseDecoder } from '../sse/sse-decoder.js';
import { MAX_UNFRAMED_CHARS, UnframedBody, type UnframedVerdict } from './unframed-body.js';

/** The frames the decoder cuts from `body`, as the adapter receives them. */
function frames(body: string): SseFrame[] {
  const decoder = createSseDecoder();
  return [...decoder.push(body), ...decoder.end()];
}

function verdicts(body: string): { pushed: UnframedVerdict[]; settled: UnframedVerdict } {
  const unframed = new UnframedBody();
  const pushed = frames(body).map((frame) => unframed.push(frame));
  return { pushed, settled: unframed.settle() };
}

const PRETTY = '{\n  "error": {\n    "code": 503,\n    "message": "The model is overloaded.",\n    "status": "UNAVAILABLE"\n  }\n}\n';
const ERROR = { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' };

describe('UnframedBody', () => {
  it('recognizes a pretty-printed error body as soon as its closing brace arrives', () => {
    expect(verdicts(PRETTY).pushed).toEqual([{ kind: 'error', error: ERROR }]);
  });

  it('joins an error body that blank lines cut into several frames', () => {
    const { pushed } = verdicts('{\r\n\r\n  "error": {"code": 503,\r\n\r\n "message": "The model is overloaded.", "status": "UNAVAILABLE"}\r\n}\r\n\r\n');
    expect(pushed.map((verdict) => verdict.kind)).toEqual(['pending', 'pending', 'error']);
    expect(pushed.at(-1)).toEqual({ kind: 'error', error: ERROR });
  });

  it('reads the [{"error": ...}] form and braces inside strings', () => {
    expect(verdicts('[{"error": {"code": 429, "message": "a } and a \\" quote", "status": "RESOURCE_EXHAUSTED"}}]\n').pushed).toEqual([
      { kind: 'error', error: { code: 429, message: 'a } and a " quote', status: 'RESOURCE_EXHAUSTED' } },
    ]);
  });

  it('says invalid for JSON that is not an error body, and for text that never parses once the run is over', () => {
    expect(verdicts('{"candidates": []}\n').pushed).toEqual([{ kind: 'invalid', message: expect.stringContaining('not an error object') }]);
    const garbage = verdicts('<html>502 Bad Gateway</html>\n');
    expect(garbage.pushed).toEqual([{ kind: 'pending' }]);
    expect(garbage.settled).toEqual({ kind: 'invalid', message: expect.stringContaining('neither SSE nor') });
  });

  it('keeps a cut error body pending', () => {
    const cut = verdicts(PRETTY.slice(0, 40));
    expect(cut.pushed).toEqual([{ kind: 'pending' }]);
    expect(cut.settled.kind).toBe('invalid');
  });

  it('ignores comments, SSE fields and blank lines', () => {
    const unframed = new UnframedBody();
    expect(frames(': keep-alive\r\n\r\nid: 7\r\n\r\n\r\n').map((frame) => unframed.push(frame).kind)).toEqual(['none', 'none', 'none']);
    expect(unframed.pending).toBe(false);
    expect(unframed.settle()).toEqual({ kind: 'none' });
  });

  it(`refuses more than ${MAX_UNFRAMED_CHARS} characters instead of holding them`, () => {
    const line = `${'x'.repeat(1000)}\n`;
    const { pushed } = verdicts(line.repeat(Math.ceil(MAX_UNFRAMED_CHARS / line.length) + 1));
    expect(pushed.at(-1)).toEqual({ kind: 'invalid', message: expect.stringContaining('are not SSE') });
  });
});
