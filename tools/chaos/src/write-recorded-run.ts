import { closeSync, openSync, writeSync } from 'node:fs';
import type { RecordedRun } from './recorded-run.js';

const FLUSH_AT_CHARS = 1 << 20;

/**
 * Writes `run` to `path` as the JSON `JSON.stringify(run)` would give, one client, served body or stream entry
 * at a time: a 5-minute run at 200 streams records more than one string can hold (V8's limit is about 512 MiB,
 * `JSON.stringify` of the whole run throws a RangeError there).
 */
export function writeRecordedRun(path: string, run: RecordedRun): void {
  const fd = openSync(path, 'w');
  let pending = '';
  const write = (text: string): void => {
    pending += text;
    if (pending.length >= FLUSH_AT_CHARS) {
      writeSync(fd, pending);
      pending = '';
    }
  };
  try {
    write('{');
    Object.entries(run).forEach(([key, value], index) => {
      write(`${index === 0 ? '' : ','}${JSON.stringify(key)}:`);
      writeCollection(value, write);
    });
    write('}\n');
    writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
}

/** An array or a plain object element by element; anything else whole. */
function writeCollection(value: unknown, write: (text: string) => void): void {
  if (Array.isArray(value)) {
    write('[');
    value.forEach((element: unknown, index) => {
      write(`${index === 0 ? '' : ',\n'}${JSON.stringify(element)}`);
    });
    write(']');
  } else if (typeof value === 'object' && value !== null) {
    write('{');
    Object.entries(value).forEach(([key, element], index) => {
      write(`${index === 0 ? '' : ',\n'}${JSON.stringify(key)}:${JSON.stringify(element)}`);
    });
    write('}');
  } else {
    write(JSON.stringify(value));
  }
}
