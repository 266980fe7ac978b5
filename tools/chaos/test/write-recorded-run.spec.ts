import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecordedRun } from '../src/write-recorded-run.js';
import { cleanRun } from './support/recorded-run-builder.js';

describe('writeRecordedRun', () => {
  const dirs: string[] = [];
  const path = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-record-'));
    dirs.push(dir);
    return join(dir, 'run.json');
  };

  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes the JSON of the whole run: parsed back, it equals the run', () => {
    const run = cleanRun();
    const file = path();

    writeRecordedRun(file, run);

    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(run);
  });

  it('writes a run with more text than one string can hold, one entry at a time', () => {
    // 600 served bodies of 1 MiB each: JSON.stringify of the whole run throws (V8's string limit is ~512 MiB).
    const base = cleanRun();
    const body = 'x'.repeat(1 << 20);
    const served = Array.from({ length: 600 }, (_, n) => ({ ...base.served[0]!, requestId: `req-${n}`, body }));
    const run = { ...base, served };
    expect(() => JSON.stringify(run)).toThrow(RangeError);
    const file = path();

    writeRecordedRun(file, run);

    const text = readFileSync(file);
    expect(text.length).toBeGreaterThan(600 * (1 << 20));
    // Every served body is written whole (parsing all of it back needs a streaming parser), the rest after it.
    const bodies: string[] = [];
    for (let at = text.indexOf('"requestId":"req-'); at !== -1; at = text.indexOf('"requestId":"req-', at + 1)) {
      const id = text.subarray(at, at + 40).toString().split('"')[3] ?? '';
      const bodyAt = text.indexOf('"body":"', at) + '"body":"'.length;
      expect(text.subarray(bodyAt, bodyAt + body.length + 2).toString()).toBe(`${body}"}`);
      bodies.push(id);
    }
    expect(bodies).toEqual(served.map((entry) => entry.requestId));
    expect(text.subarray(0, 40).toString()).toMatch(/^\{"seed":1,"startedAt":/);
    expect(text.subarray(text.length - 3).toString()).toBe('}}\n');
  }, 120_000);
});
