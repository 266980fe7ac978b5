import { googleJson } from '../src/synthetic/google-json.js';
import { allTranscripts } from './support/endpoints.js';

describe('googleJson', () => {
  const records = allTranscripts()
    .filter((item) => item.provider === 'gemini')
    .flatMap((item) =>
      item.bytes
        .toString('utf8')
        .split('\r\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => [item.caseName, line.slice('data: '.length)] as const)
        // Broken-on-purpose cases (invalid_json_record, truncated_*) have records that are not JSON at all.
        .filter(([, json]) => isJson(json)),
    );

  it('has Gemini records to compare with', () => {
    expect(records.length).toBeGreaterThan(20);
  });

  it.each(records)('%s: re-serializes a recorded object byte-exact', (_, json) => {
    expect(googleJson(JSON.parse(json))).toBe(json);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
