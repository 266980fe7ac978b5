import type { AuditRawRecord, ServedBody } from '../recorded-run.js';
import { splitSseRecords } from './sse-records.js';

/** Frames of one upstream attempt that the gateway read but the stored raw trace lacks. */
export interface LostFrames {
  readonly attempt: number;
  readonly sent: number;
  readonly stored: number;
  readonly lost: number;
}

/**
 * Compares each served body (in request order: attempt 1, 2, ...) with the frames of that attempt in the
 * stored raw trace, as multisets of exact record texts. A frame missing from the trace counts as lost when the
 * gateway read it: a later frame of the same attempt is stored, or the attempt ended `eof` (the gateway read
 * the whole body), or no `attempt.end` is stored while the gateway holding the stream stayed alive. Frames
 * after the last stored one are not counted when the attempt ended otherwise (the gateway stopped reading on
 * purpose: the stream had ended, or was cut) or its gateway died: nobody may have read them.
 */
export function lostFrames(served: readonly ServedBody[], raw: readonly AuditRawRecord[], gatewayDied: boolean): LostFrames[] {
  const bodies = served.filter((body) => body.status === 200).sort((a, b) => a.startedAt - b.startedAt);
  return bodies.map((body, n) => {
    const attempt = n + 1;
    const sent = splitSseRecords(body.body).records;
    const records = raw.filter((record) => record.attempt === attempt);
    const storedTexts = new Map<string, number>();
    for (const record of records) {
      if (record.kind === 'frame' && record.text !== undefined) storedTexts.set(record.text, (storedTexts.get(record.text) ?? 0) + 1);
    }
    const end = records.find((record) => record.kind === 'attempt.end');
    const readToTheEnd = end === undefined ? !gatewayDied : end.reason === 'eof';
    const missing: number[] = [];
    let lastMatched = -1;
    sent.forEach((text, index) => {
      const count = storedTexts.get(text) ?? 0;
      if (count > 0) {
        storedTexts.set(text, count - 1);
        lastMatched = index;
      } else missing.push(index);
    });
    const counted = readToTheEnd ? missing.length : missing.filter((index) => index < lastMatched).length;
    return { attempt, sent: sent.length, stored: sent.length - missing.length, lost: counted };
  });
}
