import type { BlockKind, MachineInput, ProviderMetadata } from '@llm-stream/contract';
import { fragment } from '../shared/block-inputs.js';
import { arrayField, isObject, stringField, type JsonObject } from '../shared/json-payload.js';
import { optional } from '../shared/optional.js';
import { protocolFailure } from '../shared/protocol-failure.js';
import { unknownPart } from '../shared/unknown-warning.js';
import type { OpenAiResponsesItemType } from './openai-responses-chunk.js';
import { EMPTY_DIGEST, digestOf, extendDigest, sameDigest, type TextDigest } from './text-digest.js';

/** `c<n>`: content part n (output_text, refusal, reasoning_text); `s<n>`: reasoning summary part n. */
export type PartSlot = `c${number}` | `s${number}`;

type ItemType = OpenAiResponsesItemType;

/**
 * One public block. `done` means the provider's `*.done` event for its text arrived (no delta may follow)
 * but the block is not stopped yet: a text part waits for content_part.done, a reasoning part for the next
 * part of its item or the item's output_item.done (whose block.stop carries encrypted_content).
 */
interface PartBlock {
  readonly key: string;
  readonly kind: BlockKind;
  state: 'open' | 'done' | 'closed';
  /** Length + rolling hash of the streamed text, to verify `*.done` events without a copy of the text. */
  digest: TextDigest;
  mismatchWarned: boolean;
}

interface OutputItem {
  readonly id: string;
  /** `null`: an item type we do not map; its events are skipped. */
  readonly type: ItemType | null;
  /** Blocks by slot, in opening order; `null` marks a skipped part of an unknown type. */
  readonly parts: Map<string, PartBlock | null>;
  /** Opaque reasoning state, byte-exact; output_item.done's value replaces output_item.added's. */
  encryptedContent: string | undefined;
}

const PROVIDER = 'openai-responses';

/**
 * The output items of one response, keyed by item id (fact 14: deltas are routed by item_id and
 * content/summary index, never by arrival order), and the blocks they opened. Holds no streamed text:
 * each block keeps a {@link TextDigest} only.
 */
export class ResponsesOutputItems {
  private readonly items = new Map<string, OutputItem>();
  private functionCall = false;
  private refusal = false;

  /** What a completed response's stop reason is inferred from. */
  get summary(): { readonly functionCall: boolean; readonly refusal: boolean } {
    return { functionCall: this.functionCall, refusal: this.refusal };
  }

  /** Whether an item of this id was added (or opened by its first event). */
  has(itemId: string): boolean {
    return this.items.has(itemId);
  }

  /** True for the id of an item of an unknown type (its events are skipped silently: it was counted once). */
  isSkipped(itemId: string): boolean {
    return this.items.get(itemId)?.type === null;
  }

  addItem(item: JsonObject, id: string): readonly MachineInput[] {
    if (this.items.has(id)) return [protocolFailure(`openai-responses: second output_item.added for item ${id}`)];
    const type = stringField(item, 'type');
    if (type === undefined) return [protocolFailure(`openai-responses: output item ${id} without a type`)];
    switch (type) {
      case 'message':
        this.register(id, 'message');
        return [];
      case 'reasoning':
        this.register(id, 'reasoning').encryptedContent = stringField(item, 'encrypted_content');
        return [];
      case 'function_call': {
        const block = this.openBlock(this.register(id, 'function_call'), 'c0', id, 'tool_call');
        this.functionCall = true;
        const name = stringField(item, 'name');
        const callId = stringField(item, 'call_id');
        // The call id (`call_…`) is what the tool result echoes; the item id (`fc_…`) only routes deltas.
        return [
          { type: 'block.open', key: block.key, kind: 'tool_call', ...optional('name', name), ...optional('call_id', callId) },
          ...this.append(block, 'json_text', stringField(item, 'arguments')),
        ];
      }
      default:
        this.items.set(id, { id, type: null, parts: new Map(), encryptedContent: undefined });
        return [unknownPart(`output_item.${type}`)];
    }
  }

  /** content_part.added / reasoning_summary_part.added: opens the part's block with the part's initial text. */
  addPart(itemId: string, slot: PartSlot, part: JsonObject | undefined): readonly MachineInput[] {
    const partType = part ? (stringField(part, 'type') ?? '') : '';
    const mapped = partKind(partType);
    const item = this.items.get(itemId) ?? this.register(itemId, mapped?.item ?? 'message');
    if (item.type === null) return [];
    if (!mapped || mapped.item !== item.type || !slotFits(slot, partType)) {
      if (item.type === 'function_call') return [protocolFailure(`openai-responses: content part in function_call item ${itemId}`)];
      item.parts.set(slot, null);
      return [unknownPart(`content_part.${partType}`)];
    }
    const existing = item.parts.get(slot);
    // A second start for the same part: the state machine names the broken rule.
    if (existing) return [{ type: 'block.open', key: existing.key, kind: existing.kind }];
    const closed = item.type === 'reasoning' ? this.closeDoneParts(item, undefined) : [];
    const block = this.openBlock(item, slot, `${itemId}#${slot}`, mapped.kind);
    const initial = part ? stringField(part, mapped.field) : undefined;
    return [...closed, { type: 'block.open', key: block.key, kind: block.kind }, ...this.append(block, 'text', initial)];
  }

  /**
   * A text fragment for a part. Tolerant of a part (or item) that was never announced: the first delta opens
   * it. Strict after the part's `*.done`: a later delta is a protocol violation.
   */
  delta(itemId: string, slot: PartSlot, itemType: ItemType, kind: BlockKind, text: string | undefined): readonly MachineInput[] {
    const item = this.items.get(itemId) ?? this.register(itemId, itemType);
    if (item.type === null) return [];
    if (item.type !== itemType) return [protocolFailure(`openai-responses: ${kind} delta for ${item.type} item ${itemId}`)];
    const existing = item.parts.get(slot);
    if (existing === null) return [];
    if (existing === undefined) {
      const closed = item.type === 'reasoning' ? this.closeDoneParts(item, undefined) : [];
      const block = this.openBlock(item, slot, `${itemId}#${slot}`, kind);
      return [...closed, { type: 'block.open', key: block.key, kind }, ...this.append(block, 'text', text)];
    }
    if (existing.kind !== kind) return [protocolFailure(`openai-responses: ${kind} delta for ${existing.kind} part ${slot} of item ${itemId}`)];
    return this.appendChecked(existing, 'text', text, itemId);
  }

  argumentsDelta(itemId: string, text: string | undefined): readonly MachineInput[] {
    const item = this.items.get(itemId);
    if (item?.type === null) return [];
    if (item && item.type !== 'function_call') return [protocolFailure(`openai-responses: arguments delta for ${item.type} item ${itemId}`)];
    const block = item?.parts.get('c0');
    // Arguments for a call that never started have no name and no call id: the machine reports it.
    if (!block) return fragment(itemId, 'json_text', text, false);
    return this.appendChecked(block, 'json_text', text, itemId);
  }

  /**
   * A `*.done` event that repeats a part's whole text (output_text.done, refusal.done,
   * reasoning_summary_text.done, reasoning_text.done, function_call_arguments.done): verified, never
   * appended; no delta may follow it. The block stops later (content_part.done, output_item.done...).
   */
  textDone(itemId: string, slot: PartSlot, kind: BlockKind, text: string | undefined, eventType: string): readonly MachineInput[] {
    const found = this.partFor(itemId, slot, eventType);
    if (!isPart(found)) return found ?? [];
    if (found.kind !== kind) return [protocolFailure(`openai-responses: ${eventType} for ${found.kind} part ${slot} of item ${itemId}`)];
    if (found.state === 'open') found.state = 'done';
    return this.verify(found, text, eventType);
  }

  /** content_part.done / reasoning_summary_part.done: verify; a message part stops here, a reasoning part waits. */
  partDone(itemId: string, slot: PartSlot, part: JsonObject | undefined, eventType: string): readonly MachineInput[] {
    const found = this.partFor(itemId, slot, eventType);
    if (!isPart(found)) return found ?? [];
    const warnings = this.verify(found, part ? stringField(part, found.kind === 'refusal' ? 'refusal' : 'text') : undefined, eventType);
    if (found.kind === 'reasoning') {
      if (found.state === 'open') found.state = 'done';
      return warnings;
    }
    return [...warnings, this.close(found, undefined)];
  }

  /** output_item.done: verifies the item's repeated content and stops what the item still holds. */
  finishItem(item: JsonObject, id: string): readonly MachineInput[] {
    const known = this.items.get(id);
    if (!known) return [protocolFailure(`openai-responses: output_item.done for item ${id}, which was never added`)];
    switch (known.type) {
      case null:
        return [];
      case 'message': {
        // Text parts stop at content_part.done; one still open here makes the terminal event fail.
        const content = arrayField(item, 'content');
        return [...this.wholeParts(known, 'c', content), ...this.verifyList(known, 'c', content, (part) => stringField(part, 'text') ?? stringField(part, 'refusal'))];
      }
      case 'function_call': {
        const block = known.parts.get('c0');
        if (!block) return [];
        const warnings = this.verify(block, stringField(item, 'arguments'), 'response.output_item.done');
        // A call cut short (status incomplete) is never stopped, so it can never be executed.
        if (stringField(item, 'status') === 'incomplete') return warnings;
        return [...warnings, this.close(block, undefined)];
      }
      case 'reasoning': {
        known.encryptedContent = stringField(item, 'encrypted_content') ?? known.encryptedContent;
        const warnings = [
          ...this.wholeParts(known, 's', arrayField(item, 'summary')),
          ...this.wholeParts(known, 'c', arrayField(item, 'content')),
          ...this.verifyList(known, 's', arrayField(item, 'summary'), (part) => stringField(part, 'text')),
          ...this.verifyList(known, 'c', arrayField(item, 'content'), (part) => stringField(part, 'text')),
        ];
        const hasBlock = [...known.parts.values()].some((part) => part !== null);
        if (!hasBlock && known.encryptedContent !== undefined) {
          // No summary, but opaque state the next turn needs: an empty reasoning block carries it.
          const block = this.openBlock(known, 'c0', `${id}#encrypted`, 'reasoning');
          return [...warnings, { type: 'block.open', key: block.key, kind: 'reasoning' }, this.close(block, this.metadata(known, true))];
        }
        return [...warnings, ...this.closeDoneParts(known, known.encryptedContent)];
      }
    }
  }

  private register(id: string, type: ItemType): OutputItem {
    const item: OutputItem = { id, type, parts: new Map(), encryptedContent: undefined };
    this.items.set(id, item);
    return item;
  }

  private openBlock(item: OutputItem, slot: string, key: string, kind: BlockKind): PartBlock {
    const block: PartBlock = { key, kind, state: 'open', digest: EMPTY_DIGEST, mismatchWarned: false };
    item.parts.set(slot, block);
    if (kind === 'refusal') this.refusal = true;
    return block;
  }

  private partFor(itemId: string, slot: string, eventType: string): PartBlock | readonly MachineInput[] | undefined {
    const item = this.items.get(itemId);
    if (item?.type === null) return undefined;
    const part = item?.parts.get(slot);
    if (part === null) return undefined;
    return part ?? [protocolFailure(`openai-responses: ${eventType} for part ${slot} of item ${itemId}, which never started`)];
  }

  private appendChecked(block: PartBlock, kind: 'text' | 'json_text', text: string | undefined, itemId: string): readonly MachineInput[] {
    // After block.stop the machine reports the delta; between `*.done` and block.stop only we can.
    if (block.state === 'done') return [protocolFailure(`openai-responses: delta for ${block.kind} part of item ${itemId} after its done event`)];
    return this.append(block, kind, text);
  }

  private append(block: PartBlock, kind: 'text' | 'json_text', text: string | undefined): readonly MachineInput[] {
    if (text) block.digest = extendDigest(block.digest, text);
    return fragment(block.key, kind, text, true);
  }

  /**
   * Parts that output_item.done holds whole and no part event announced (a server that sends whole items, no
   * deltas): each becomes a block with the part's text as its one delta. A message part stops here; a
   * reasoning part is done and stops with its item, carrying the encrypted_content.
   */
  private wholeParts(item: OutputItem, prefix: 'c' | 's', parts: readonly unknown[] | undefined): readonly MachineInput[] {
    const out: MachineInput[] = [];
    parts?.forEach((part, index) => {
      const slot: PartSlot = `${prefix}${index}`;
      if (!isObject(part) || item.parts.has(slot)) return;
      const partType = stringField(part, 'type') ?? '';
      const mapped = partKind(partType);
      if (!mapped || mapped.item !== item.type || !slotFits(slot, partType)) {
        item.parts.set(slot, null);
        out.push(unknownPart(`content_part.${partType}`));
        return;
      }
      const block = this.openBlock(item, slot, `${item.id}#${slot}`, mapped.kind);
      out.push({ type: 'block.open', key: block.key, kind: block.kind }, ...this.append(block, 'text', stringField(part, mapped.field)));
      if (item.type === 'reasoning') block.state = 'done';
      else out.push(this.close(block, undefined));
    });
    return out;
  }

  /**
   * A `*.done` event's whole text against what streamed. A block that received no text at all takes it as
   * its one delta (the content arrived whole, with no deltas); otherwise a difference is a warning and the
   * streamed text stays.
   */
  private verify(block: PartBlock, text: string | undefined, eventType: string): readonly MachineInput[] {
    if (text && block.digest.length === 0 && block.state !== 'closed') return this.append(block, block.kind === 'tool_call' ? 'json_text' : 'text', text);
    if (text === undefined || block.mismatchWarned || sameDigest(block.digest, digestOf(text))) return [];
    block.mismatchWarned = true;
    const message =
      `${eventType} does not match the streamed text (${String(text.length)} vs ${String(block.digest.length)} UTF-16 units); ` +
      'the streamed text is kept';
    return [{ type: 'warn', warning: { code: 'text_mismatch', message, provider_event_type: eventType } }];
  }

  private verifyList(
    item: OutputItem,
    prefix: 'c' | 's',
    parts: readonly unknown[] | undefined,
    read: (part: JsonObject) => string | undefined,
  ): readonly MachineInput[] {
    const out: MachineInput[] = [];
    parts?.forEach((part, index) => {
      const block = item.parts.get(`${prefix}${String(index)}`);
      if (block && isObject(part)) out.push(...this.verify(block, read(part), 'response.output_item.done'));
    });
    return out;
  }

  /** Stops the reasoning parts whose text is done; the last one carries the item's encrypted_content. */
  private closeDoneParts(item: OutputItem, encrypted: string | undefined): MachineInput[] {
    const done = [...item.parts.values()].filter((part): part is PartBlock => part?.state === 'done');
    return done.map((part, index) => this.close(part, this.metadata(item, encrypted !== undefined && index === done.length - 1)));
  }

  private metadata(item: OutputItem, withEncrypted: boolean): ProviderMetadata {
    const encrypted = withEncrypted ? item.encryptedContent : undefined;
    return { [PROVIDER]: { item_id: item.id, ...optional('encrypted_content', encrypted) } };
  }

  private close(block: PartBlock, metadata: ProviderMetadata | undefined): MachineInput {
    block.state = 'closed';
    return { type: 'block.close', key: block.key, ...optional('provider_metadata', metadata) };
  }
}

function isPart(found: PartBlock | readonly MachineInput[] | undefined): found is PartBlock {
  return found !== undefined && !Array.isArray(found);
}

/** Which item a content part type belongs to, the block it becomes, and the field of its text. */
function partKind(partType: string): { item: ItemType; kind: BlockKind; field: string } | undefined {
  switch (partType) {
    case 'output_text':
      return { item: 'message', kind: 'text', field: 'text' };
    case 'refusal':
      return { item: 'message', kind: 'refusal', field: 'refusal' };
    case 'reasoning_text':
      return { item: 'reasoning', kind: 'reasoning', field: 'text' };
    case 'summary_text':
      return { item: 'reasoning', kind: 'reasoning', field: 'text' };
    default:
      return undefined;
  }
}

/** Summary parts live in `s` slots, content parts in `c` slots. */
function slotFits(slot: PartSlot, partType: string): boolean {
  return slot.startsWith('s') === (partType === 'summary_text');
}
