/**
 * Splits an SSE body into its records exactly as they were on the wire, each with its terminating blank line
 * (HTML Standard event-stream framing: lines end with CRLF, LF or CR; an empty line ends a record). Written
 * here rather than imported so the checker shares no code with the gateway's decoder. `tail` is what follows
 * the last complete record (a cut body's partial record), never counted as a frame.
 */
export function splitSseRecords(body: string): { readonly records: readonly string[]; readonly tail: string } {
  const records: string[] = [];
  let start = 0;
  let lineStart = 0;
  let i = 0;
  while (i < body.length) {
    const char = body.charCodeAt(i);
    if (char !== 10 && char !== 13) {
      i += 1;
      continue;
    }
    // A CR at the very end may be the first half of a CRLF that the cut kept back: not a line end yet.
    if (char === 13 && i + 1 === body.length) break;
    const next = char === 13 && body.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    const emptyLine = i === lineStart;
    i = next;
    lineStart = next;
    if (emptyLine) {
      records.push(body.slice(start, next));
      start = next;
    }
  }
  return { records, tail: body.slice(start) };
}
