/** A gap stayed open while more messages than the bound arrived after it: the reader gave up. */
export class LiveLogGapError extends Error {
  readonly code = 'gap_not_repaired';

  constructor(
    readonly subject: string,
    readonly missing: number,
    readonly waiting: number,
  ) {
    super(`${subject}: message ${String(missing)} is missing and ${String(waiting)} messages wait after it`);
    this.name = 'LiveLogGapError';
  }
}
