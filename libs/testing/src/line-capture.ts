import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

/**
 * Lines of a child's output, oldest dropped beyond `maxLines` so a chatty service cannot exhaust the test's
 * memory. stdout and stderr share one list in arrival order; each stream keeps its own partial last line, so a
 * write on one never splits a line of the other.
 */
export class LineCapture {
  readonly lines: string[] = [];
  droppedLines = 0;
  private readonly listeners = new Set<(line: string) => void>();

  constructor(private readonly maxLines: number) {}

  /** Calls `listener` for each line captured from now on; returns the unsubscribe function. */
  onLine(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Feeds a stream in; resolves when it ended and its unterminated last line (if any) was captured. */
  attach(stream: Readable): Promise<void> {
    // A StringDecoder keeps a UTF-8 character split across chunks whole.
    const decoder = new StringDecoder('utf8');
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      partial += decoder.write(chunk);
      let newline = partial.indexOf('\n');
      while (newline !== -1) {
        this.push(partial.slice(0, newline));
        partial = partial.slice(newline + 1);
        newline = partial.indexOf('\n');
      }
    });
    return new Promise((resolve) => {
      stream.once('close', () => {
        partial += decoder.end();
        if (partial !== '') {
          this.push(partial);
          partial = '';
        }
        resolve();
      });
    });
  }

  /** The last `count` lines, joined. */
  tail(count: number): string {
    return this.lines.slice(-count).join('\n');
  }

  private push(rawLine: string): void {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    this.lines.push(line);
    if (this.lines.length > this.maxLines) {
      this.lines.shift();
      this.droppedLines++;
    }
    for (const listener of this.listeners) {
      listener(line);
    }
  }
}
