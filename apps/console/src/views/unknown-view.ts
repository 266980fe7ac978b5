import type { AuditApi } from '../api.js';
import { el, replace } from '../dom.js';
import { refusal } from './sign-in.js';

/** Unknown provider events by provider and type, each linking to the streams that had them. */
export function unknownView(root: HTMLElement, api: AuditApi): void {
  const box = el('div', { id: 'unknown' }, 'Loading…');
  replace(root, el('h1', {}, 'Unknown provider events'), el('p', {}, 'Provider events or parts the adapters do not know: each was skipped with a stream.warning.'), box);
  api.unknownEvents().then(
    ({ groups }) => {
      if (groups.length === 0) {
        replace(box, 'None stored.');
        return;
      }
      replace(
        box,
        el(
          'table',
          { className: 'unknown' },
          el('thead', {}, el('tr', {}, el('th', {}, 'provider'), el('th', {}, 'type'), el('th', {}, 'streams'), el('th', {}, 'newest streams'))),
          el(
            'tbody',
            {},
            ...groups.map((group) =>
              el(
                'tr',
                {},
                el('td', {}, group.provider),
                el('td', { className: 'mono' }, group.type),
                el('td', { className: 'num' }, group.streams),
                el('td', {}, ...group.stream_ids.map((id) => el('a', { href: `#/stream/${id}`, className: 'mono stream-link' }, id, ' '))),
              ),
            ),
          ),
        ),
      );
    },
    (error: unknown) => {
      replace(box, el('p', { className: 'error' }, refusal(error)));
    },
  );
}
