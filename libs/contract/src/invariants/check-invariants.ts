import type { BlockKind } from '../events/block.js';
import { EVENT_TYPES, type BlockEvent, type ContractEvent, type ContractEventType } from '../events/contract-event.js';
import { parseToolArguments } from '../events/tool-arguments.js';
import { validateEvent } from '../schema/validate-event.js';
import type { InvariantRule } from './invariant-rule.js';

export interface InvariantViolation {
  readonly rule: InvariantRule;
  /** Position of the offending event in the list (the list's length for `missing-terminal`). */
  readonly index: number;
  /** The offending event's seq, when it has a readable one. */
  readonly seq?: number;
  readonly message: string;
}

export interface InvariantOptions {
  /** The stream may still be running: a missing terminal event is not a violation. */
  readonly partial?: boolean;
  /**
   * The list is a client's projection of the full-truth log (reasoning blocks withheld): seq strictly
   * increases but may skip numbers, and block indexes increase but may skip positions.
   */
  readonly projection?: boolean;
}

interface BlockTrack {
  readonly id: string;
  readonly kind: BlockKind;
  /** seq of the block.stop, `undefined` while open. */
  stoppedAt: number | undefined;
  json: string;
}

/** The fields sequence rules need, read even from an event that fails the schema. */
interface Shape {
  readonly type: ContractEventType | undefined;
  readonly seq: number | undefined;
  readonly streamId: string | undefined;
}

/**
 * Checks a stream's events against every invariant and reports every violation, in list order, without
 * stopping at the first. Pure: the same list always gives the same report.
 *
 * Sequence rules (start, seq, stream id, terminal) read `type`, `seq` and `stream_id` even from an event
 * that fails the schema, so one malformed field does not also look like a gap or a missing terminal;
 * block rules use only events that pass the schema. Events after the terminal are reported once each and
 * otherwise ignored.
 */
export function checkInvariants(
  events: readonly unknown[] | readonly ContractEvent[],
  options: InvariantOptions = {},
): InvariantViolation[] {
  const violations: InvariantViolation[] = [];
  const blocks = new Map<number, BlockTrack>();
  const idOwners = new Map<string, number>();
  let streamId: string | undefined;
  let maxSeq: number | undefined;
  let starts = 0;
  let terminalSeq: number | undefined;
  let terminalSeen = false;
  let maxIndex = -1;

  for (const [index, value] of events.entries()) {
    const shape = readShape(value);
    const report = (rule: InvariantRule, message: string): void => {
      violations.push(shape.seq === undefined ? { rule, index, message } : { rule, index, seq: shape.seq, message });
    };

    const validated = validateEvent(value);
    if (!validated.ok) report('schema-valid', validated.error.message);

    // --- sequence rules ---------------------------------------------------------------------------------
    if (index === 0 && shape.type !== 'stream.start') {
      report('first-event-is-start', `the first event is ${shape.type ?? 'not an event'}, not stream.start`);
    }
    if (shape.type === 'stream.start') {
      starts += 1;
      if (starts > 1) report('single-stream-start', `stream.start number ${starts}`);
    }
    if (shape.seq !== undefined) {
      if (index === 0 && shape.seq !== 1) report('seq-starts-at-one', `the first event has seq ${shape.seq}, not 1`);
      if (maxSeq !== undefined) {
        if (shape.seq <= maxSeq) {
          report('seq-strictly-increasing', `seq ${shape.seq} after seq ${maxSeq}`);
        } else if (options.projection !== true && shape.seq !== maxSeq + 1) {
          report('seq-contiguous', `seq jumps from ${maxSeq} to ${shape.seq}`);
        }
      }
      // The maximum, not the last value: after one out-of-order seq, later correct ones are not blamed.
      maxSeq = Math.max(maxSeq ?? shape.seq, shape.seq);
    }
    if (shape.streamId !== undefined) {
      streamId ??= shape.streamId;
      if (shape.streamId !== streamId) report('single-stream-id', `stream_id ${shape.streamId} in stream ${streamId}`);
    }
    if (terminalSeen) {
      const isTerminal = shape.type === 'stream.done' || shape.type === 'stream.error';
      report(
        isTerminal ? 'single-terminal' : 'nothing-after-terminal',
        `${shape.type ?? 'an event'} after the terminal event${terminalSeq === undefined ? '' : ` (seq ${terminalSeq})`}`,
      );
      continue;
    }
    if (shape.type === 'stream.done' || shape.type === 'stream.error') {
      terminalSeen = true;
      terminalSeq = shape.seq;
    }
    if (!validated.ok) continue;

    // --- block rules ------------------------------------------------------------------------------------
    const event = validated.value;
    switch (event.type) {
      case 'block.start': {
        const { id, index: blockIndex, kind } = event.block;
        if (blocks.has(blockIndex)) {
          report('block-started-once', `second block.start for block ${blockIndex}`);
          continue;
        }
        // Measured from the highest index so far, so one skipped or repeated position is reported once.
        const expected = options.projection === true ? `an index above ${maxIndex}` : `index ${maxIndex + 1}`;
        if (options.projection === true ? blockIndex <= maxIndex : blockIndex !== maxIndex + 1) {
          report('block-index-order', `block.start with index ${blockIndex}, expected ${expected}`);
        }
        const owner = idOwners.get(id);
        if (owner !== undefined) report('block-id-unique', `block ${blockIndex} reuses the id ${id} of block ${owner}`);
        else idOwners.set(id, blockIndex);
        blocks.set(blockIndex, { id, kind, stoppedAt: undefined, json: '' });
        maxIndex = Math.max(maxIndex, blockIndex);
        continue;
      }
      case 'block.delta': {
        const block = blocks.get(event.block.index);
        if (block === undefined || block.stoppedAt !== undefined) {
          const why = block === undefined ? 'was never started' : `was stopped at seq ${String(block.stoppedAt)}`;
          report('delta-needs-open-block', `block.delta for block ${event.block.index}, which ${why}`);
          continue;
        }
        checkRef(block, event, report);
        if (block.kind === 'tool_call') block.json += event.delta.text;
        continue;
      }
      case 'block.stop': {
        const block = blocks.get(event.block.index);
        if (block === undefined) {
          report('stop-needs-start', `block.stop for block ${event.block.index}, which was never started`);
          continue;
        }
        if (block.stoppedAt !== undefined) {
          report('block-stopped-at-most-once', `second block.stop for block ${event.block.index} (first at seq ${block.stoppedAt})`);
          continue;
        }
        checkRef(block, event, report);
        block.stoppedAt = event.seq;
        if (block.kind === 'tool_call') {
          const parsed = parseToolArguments(block.json);
          if (!parsed.ok) report('tool-arguments-valid-json', `tool_call block ${event.block.index}: ${parsed.error.message}`);
        }
        continue;
      }
      case 'stream.done': {
        const open = [...blocks.entries()].filter(([, block]) => block.stoppedAt === undefined).map(([i]) => i);
        if (open.length > 0) report('done-with-open-block', `stream.done while block ${open.join(', ')} is open`);
        continue;
      }
      case 'stream.start':
      case 'stream.error':
      case 'stream.heartbeat':
      case 'stream.warning':
        continue;
    }
  }

  if (options.partial !== true && !terminalSeen) {
    violations.push({ rule: 'missing-terminal', index: events.length, message: 'the stream has no stream.done or stream.error' });
  }
  return violations;
}

function checkRef(block: BlockTrack, event: BlockEvent, report: (rule: InvariantRule, message: string) => void): void {
  const { id, index, kind } = event.block;
  if (id !== block.id || kind !== block.kind) {
    report(
      'block-ref-consistent',
      `${event.type} names block ${index} as ${kind} ${id}, but it started as ${block.kind} ${block.id}`,
    );
  }
}

function readShape(value: unknown): Shape {
  if (typeof value !== 'object' || value === null) return { type: undefined, seq: undefined, streamId: undefined };
  const record = value as Record<string, unknown>;
  const type = record['type'];
  const seq = record['seq'];
  const streamId = record['stream_id'];
  return {
    type: (EVENT_TYPES as readonly unknown[]).includes(type) ? (type as ContractEventType) : undefined,
    seq: typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : undefined,
    streamId: typeof streamId === 'string' ? streamId : undefined,
  };
}
