/**
 * The rules a stream's event list must satisfy, each checked by `checkInvariants`. The first five are the
 * seed's "rules worth checking for every recorded stream"; the rest complete the contract. Rules are
 * disjoint where possible, so one defect is reported under the rule it breaks and not under several.
 */
export const INVARIANT_RULES = [
  'schema-valid',
  'first-event-is-start',
  'single-stream-start',
  'seq-starts-at-one',
  'seq-strictly-increasing',
  'seq-contiguous',
  'single-stream-id',
  'delta-needs-open-block',
  'stop-needs-start',
  'block-started-once',
  'block-stopped-at-most-once',
  'block-index-order',
  'block-id-unique',
  'block-ref-consistent',
  'tool-arguments-valid-json',
  'done-with-open-block',
  'nothing-after-terminal',
  'single-terminal',
  'missing-terminal',
] as const;
export type InvariantRule = (typeof INVARIANT_RULES)[number];

/** What each rule requires, in one sentence (for reports and documentation). */
export const INVARIANT_RULE_DESCRIPTIONS: Readonly<Record<InvariantRule, string>> = {
  'schema-valid': 'Every event validates against the contract JSON Schema.',
  'first-event-is-start': 'The first event is stream.start.',
  'single-stream-start': 'A stream has one stream.start.',
  'seq-starts-at-one': 'The first event has seq 1.',
  'seq-strictly-increasing': 'seq increases strictly from event to event.',
  'seq-contiguous': 'In the full-truth log seq increases by exactly 1 (not checked for a client projection).',
  'single-stream-id': 'Every event carries the stream_id of the first one.',
  'delta-needs-open-block': 'A block.delta belongs to a block that was started and not yet stopped.',
  'stop-needs-start': 'A block.stop belongs to a block that was started.',
  'block-started-once': 'Each block index is started once.',
  'block-stopped-at-most-once': 'Each block is stopped at most once.',
  'block-index-order':
    'Block indexes follow the order of first appearance: 0, 1, 2... (in a projection: increasing, gaps allowed).',
  'block-id-unique': 'Two blocks never share an id.',
  'block-ref-consistent': 'Every event of a block repeats the id and kind of its block.start.',
  'tool-arguments-valid-json': 'A stopped tool_call block\'s arguments parse as a JSON object (or are empty).',
  'done-with-open-block': 'stream.done is not emitted while a block is open.',
  'nothing-after-terminal': 'No other event follows stream.done or stream.error.',
  'single-terminal': 'No second terminal event follows the first one.',
  'missing-terminal': 'A finished stream ends with stream.done or stream.error.',
};
