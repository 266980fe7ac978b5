import fc from 'fast-check';
import { splitRecords } from '../src/sse-records.js';
import { allTranscripts, recordEnds } from './support/endpoints.js';

function ends(records: Buffer[]): number[] {
  let offset = 0;
  return records.map((record) => (offset += record.length));
}

describe('splitRecords', () => {
  it.each(allTranscripts().map((item) => [`${item.provider}/${item.caseName}`, item.bytes] as const))(
    '%s: records concatenate to the file and end where blank lines end',
    (_, bytes) => {
      const records = splitRecords(bytes);
      expect(Buffer.concat(records).equals(bytes)).toBe(true);
      expect(ends(records)).toEqual(recordEnds(bytes));
    },
  );

  it('handles LF, CRLF and CR blank lines and a trailing partial record', () => {
    const text = 'data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r\n\ndata: partial';
    expect(splitRecords(Buffer.from(text)).map((record) => record.toString())).toEqual([
      'data: a\n\n',
      'data: b\r\n\r\n',
      'data: c\r\r',
      'data: d\r\n\n',
      'data: partial',
    ]);
  });

  it('agrees with an independent line scanner on arbitrary bytes', () => {
    const alphabet = fc.constantFrom('d', ':', ' ', '\r', '\n', 'é', '\r\n');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
        const bytes = Buffer.from(parts.join(''));
        const records = splitRecords(bytes);
        expect(Buffer.concat(records).equals(bytes)).toBe(true);
        expect(ends(records)).toEqual(bytes.length === 0 ? [] : recordEnds(bytes));
      }),
    );
  });
});
