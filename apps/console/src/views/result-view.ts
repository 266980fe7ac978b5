import type { AssembledBlock } from '@llm-stream/contract';
import type { StreamDetail } from '@llm-stream/contract';
import { el } from '../dom.js';

/** The assembled result: each block's text or tool call (arguments parsed when complete), drafts marked. */
export function resultView(detail: StreamDetail): HTMLElement {
  const blocks = detail.result.blocks.map((block) => blockView(block, detail.draft));
  return el(
    'div',
    { className: 'result', id: 'result' },
    detail.draft ? el('p', { className: 'draft-note' }, 'Draft: the stream did not complete; this is what arrived, never a result to act on.') : null,
    ...(blocks.length === 0 ? [el('p', {}, 'No blocks.')] : blocks),
  );
}

function blockView(block: AssembledBlock, draft: boolean): HTMLElement {
  const marks = `${block.complete ? 'complete' : 'unfinished'}${draft ? ' · draft' : ''}`;
  const title = el('h4', {}, `#${String(block.index)} ${block.kind} `, el('span', { className: block.complete ? 'ok' : 'warn' }, marks));
  if (block.kind === 'tool_call') {
    return el(
      'section',
      { className: `block tool_call${block.complete ? '' : ' unfinished'}` },
      title,
      el('p', {}, `name ${block.name ?? '—'} · call id ${block.call_id ?? '—'}`),
      el('p', {}, 'arguments as received:'),
      el('pre', { className: 'text' }, block.raw_arguments ?? ''),
      block.arguments === undefined ? el('p', { className: 'warn' }, 'not parsed (unfinished or not a JSON object)') : el('pre', { className: 'text parsed' }, JSON.stringify(block.arguments, null, 2)),
    );
  }
  return el('section', { className: `block ${block.kind}` }, title, el('pre', { className: 'text' }, block.text ?? ''));
}
