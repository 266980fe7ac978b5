import fc from 'fast-check';
import { contractEventArb } from '../../test/event-arbitraries.js';
import { parseEventLine } from './parse-event-line.js';

describe('parseEventLine', () => {
  it('round-trips every event through one NDJSON line', () => {
    fc.assert(
      fc.property(contractEventArb, (event) => {
        expect(parseEventLine(JSON.stringify(event))).toEqual({ ok: true, value: event });
      }),
    );
  });

  it('ignores surrounding whitespace, including the CR of a CRLF line', () => {
    const line = JSON.stringify({ type: 'stream.heartbeat', stream_id: 's', seq: 2, ts: 5 });
    expect(parseEventLine(`  ${line}\r`)).toEqual({ ok: true, value: { type: 'stream.heartbeat', stream_id: 's', seq: 2, ts: 5 } });
  });

  it.each(['', '   ', '{"type":"stream.heartbeat"', 'not json', '{"a":1}{"b":2}'])('rejects %p as invalid_json', (line) => {
    const result = parseEventLine(line);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('invalid_json');
    expect(!result.ok && result.error.message).toMatch(/^not a JSON line: /);
  });

  it('says an empty line is empty', () => {
    expect(parseEventLine('')).toEqual({ ok: false, error: { code: 'invalid_json', message: 'not a JSON line: the line is empty' } });
  });

  it('rejects JSON that is not a contract event as schema_violation', () => {
    const result = parseEventLine('{"type":"stream.heartbeat","stream_id":"s","seq":0,"ts":5}');
    expect(result.ok).toBe(false);
    if (!result.ok && result.error.code === 'schema_violation') {
      expect(result.error.path).toBe('/seq');
    } else {
      throw new Error('expected a schema_violation');
    }
  });
});
