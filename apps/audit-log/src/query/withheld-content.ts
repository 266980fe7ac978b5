import { isBlockEvent, type AssembledBlock, type ContractEvent } from '@llm-stream/contract';

/** Fragments shorter than this are too common to tell reasoning from an answer (" the", "{}"). */
const MIN_FRAGMENT = 8;

/** A reasoning block's events: withheld from a key without the `reasoning` policy, as the gateway withholds them. */
export function isWithheldEvent(event: ContractEvent): boolean {
  return isBlockEvent(event) && event.block.kind === 'reasoning';
}

/**
 * The withheld content of a stream, to recognise it in raw frames that produced no reasoning event themselves:
 * a provider repeats the thinking text in a closing record (`response.reasoning_summary_text.done`,
 * `response.output_item.done`, the whole response in `response.completed`), and sends signatures and
 * encrypted reasoning in frames whose event comes later. Each reasoning block's full text and signature, and
 * every string of the withheld events' deltas and provider metadata.
 */
export function withheldFragments(events: readonly ContractEvent[], blocks: readonly AssembledBlock[]): string[] {
  const fragments = new Set<string>();
  for (const block of blocks) {
    if (block.kind !== 'reasoning') continue;
    if (block.text !== undefined) fragments.add(block.text);
    if (block.signature !== undefined) fragments.add(block.signature);
  }
  for (const event of events) {
    if (!isWithheldEvent(event)) continue;
    if (event.type === 'block.delta') fragments.add(event.delta.text);
    if (event.type === 'block.stop' && event.provider_metadata !== undefined) for (const text of stringsIn(event.provider_metadata, false)) fragments.add(text);
  }
  return [...fragments].filter((fragment) => fragment.length >= MIN_FRAGMENT);
}

/**
 * Whether a raw frame's text carries any of `fragments`: in its raw text, or in a string value of the JSON of
 * its `data:` lines (decoded, so any escaping matches) that holds a fragment or is a piece of one. It errs on
 * the side of withholding: an answer quoting eight characters of the reasoning verbatim is withheld too.
 */
export function carriesWithheld(frameText: string, fragments: readonly string[]): boolean {
  if (fragments.length === 0) return false;
  if (fragments.some((fragment) => frameText.includes(fragment))) return true;
  for (const value of frameStrings(frameText)) {
    if (value.length < MIN_FRAGMENT) continue;
    if (fragments.some((fragment) => value.includes(fragment) || fragment.includes(value))) return true;
  }
  return false;
}

/** The string values of the JSON in a frame's `data:` lines (a frame that is not JSON has none). */
function frameStrings(frameText: string): string[] {
  const data = frameText
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  try {
    return stringsIn(JSON.parse(data) as unknown, true);
  } catch {
    return [];
  }
}

/** Every string in a JSON value (member names too, with `withNames`); iterative, so a deeply nested hostile frame cannot overflow the stack. */
function stringsIn(root: unknown, withNames: boolean): string[] {
  const found: string[] = [];
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) for (const item of value as unknown[]) pending.push(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (withNames) found.push(key);
        pending.push(member);
      }
    }
  }
  return found;
}
