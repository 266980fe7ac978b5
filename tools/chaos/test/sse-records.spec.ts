import { readFileSync } from 'node:fs';
import { listTranscripts } from '@llm-stream/testing';
import { splitSseRecords } from '../src/check/sse-records.js';

describe('splitSseRecords', () => {
  it('splits LF, CRLF and CR framing and keeps each record exact, terminator included', () => {
    expect(splitSseRecords('data: a\n\ndata: b\r\n\r\n: ping\r\rdata: c\n').records).toEqual(['data: a\n\n', 'data: b\r\n\r\n', ': ping\r\r']);
    expect(splitSseRecords('data: a\n\ndata: b\r\n\r\n: ping\r\rdata: c\n').tail).toBe('data: c\n');
  });

  it('does not end a record on a CR that may be half of a CRLF at the cut', () => {
    expect(splitSseRecords('data: a\r\n\r').records).toEqual([]);
  });

  it('gives back every transcript byte for byte', () => {
    for (const transcript of listTranscripts()) {
      const body = readFileSync(transcript.ssePath, 'utf8');
      const { records, tail } = splitSseRecords(body);
      expect(records.join('') + tail).toBe(body);
    }
  });
});
