import { readFileSync } from 'node:fs';
import { normalizeTranscript } from '@llm-stream/adapters';
import { encodeTraceRecord } from '@llm-stream/contract';
import { listTranscripts } from '@llm-stream/testing';
import type { StoredRawRecord } from '../store/audit-repository.js';
import { replayRawTrace } from './raw-replay.js';

function stored(records: ReturnType<typeof normalizeTranscript>['records']): StoredRawRecord[] {
  return records.map((record, index) => {
    const encoded = encodeTraceRecord(record, { stream_id: 'st_r', tenant: 'acme', provider: 'anthropic', model: 'm' });
    return {
      attempt: 'attempt' in record ? record.attempt : 0,
      raw_seq: record.raw_seq,
      kind: encoded.headers['Llm-Record'] ?? record.kind,
      ts: record.ts,
      js_seq: index + 1,
      body: encoded.data,
      redacted: false,
    };
  });
}

describe('replayRawTrace', () => {
  it.each(listTranscripts().map((file) => [`${file.provider}/${file.name}`, file] as const))(
    'gives back the events of %s, each under the record that produced it',
    (_name, file) => {
      const { events, records } = normalizeTranscript(file.provider as Parameters<typeof normalizeTranscript>[0], readFileSync(file.ssePath), {
        streamId: 'st_r',
        clock: () => 5,
      });
      const replayed = replayRawTrace(stored(records));
      expect(replayed.flatMap((entry) => entry.events)).toEqual(events);
      // stream.start comes from stream.open, and no event comes from the attempt's bookkeeping records.
      expect(replayed[0]?.events.map((event) => event.type)).toEqual(['stream.start']);
      expect(replayed.filter((entry) => entry.stored.kind === 'attempt.start').flatMap((entry) => entry.events)).toEqual([]);
    },
  );

  it('cannot replay a record whose stored JSON does not parse, and yields nothing for it', () => {
    const replayed = replayRawTrace([{ attempt: 0, raw_seq: 1, kind: 'stream.open', ts: 1, js_seq: 1, body: '{', redacted: false }]);
    expect(replayed).toEqual([{ stored: expect.objectContaining({ raw_seq: 1 }), record: null, events: [] }]);
  });
});
