import type { StreamReplay } from '@llm-stream/adapters';
import { el } from '../dom.js';

/** The replay comparison: what this build's adapters make of the stored raw trace, against the stored outcome. */
export function replayView(replay: StreamReplay): HTMLElement {
  if (replay.unreplayable !== null) return el('p', { className: 'warn' }, `Not replayed: ${replay.unreplayable.replace(/_/g, ' ')}.`);
  const caveat = replay.redacted ? ' Some frames were redacted when stored: a change may be the redaction, not the adapters.' : '';
  if (replay.changes.length === 0) return el('p', {}, el('span', { className: 'ok' }, 'Same outcome: '), `this build's adapters replay the stored frames to the stored result.${caveat}`);
  return el(
    'div',
    {},
    el('p', { className: 'warn' }, `${String(replay.changes.length)} changes when replayed with this build's adapters.${caveat}`),
    el(
      'table',
      { className: 'changes' },
      el('thead', {}, el('tr', {}, el('th', {}, 'field'), el('th', {}, 'stored'), el('th', {}, 'replayed'))),
      el(
        'tbody',
        {},
        ...replay.changes.map((change) =>
          el('tr', {}, el('td', {}, change.block === undefined ? change.field : `${change.field} #${String(change.block)}`), el('td', {}, el('pre', {}, JSON.stringify(change.stored))), el('td', {}, el('pre', {}, JSON.stringify(change.replayed)))),
        ),
      ),
    ),
  );
}
