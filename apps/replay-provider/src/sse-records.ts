const CR = 0x0d;
const LF = 0x0a;

/**
 * Cuts an event-stream body into records: each record runs up to and including the blank line that ends it
 * (CRLF, LF or CR line endings, as the HTML Standard allows), so concatenating the records gives back the
 * exact bytes. Trailing bytes with no blank line (a truncated transcript) become a last, partial record.
 * Records are the unit of `frame_delay_ms` and `stall_after_frames`.
 */
export function splitRecords(bytes: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  let atLineStart = true;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte === CR || byte === LF) {
      const terminatorLength = byte === CR && bytes[index + 1] === LF ? 2 : 1;
      if (atLineStart) {
        records.push(bytes.subarray(start, index + terminatorLength));
        start = index + terminatorLength;
      }
      atLineStart = true;
      index += terminatorLength;
    } else {
      atLineStart = false;
      index += 1;
    }
  }
  if (start < bytes.length) records.push(bytes.subarray(start));
  return records;
}
