import { AuditApi } from './api.js';
import { el, replace } from './dom.js';
import { forgetKey, storedKey } from './session.js';
import { signInView } from './views/sign-in.js';
import { streamView } from './views/stream-view.js';
import { streamsView } from './views/streams-view.js';
import { unknownView } from './views/unknown-view.js';

const root = document.getElementById('app');
const nav = document.getElementById('nav');
if (root === null || nav === null) throw new Error('index.html has no #app and #nav');

let stop: (() => void) | undefined;

/** Hash routes: `#/streams?filters`, `#/stream/<id>`, `#/unknown`; no key means the sign-in form. */
function route(): void {
  stop?.();
  stop = undefined;
  if (root === null || nav === null) return;
  const key = storedKey();
  if (key === null) {
    replace(nav);
    signInView(root, route);
    return;
  }
  const signOut = el(
    'button',
    {
      type: 'button',
      id: 'sign-out',
      onClick: () => {
        forgetKey();
        route();
      },
    },
    'Sign out',
  );
  replace(nav, el('a', { href: '#/streams' }, 'Streams'), el('a', { href: '#/unknown' }, 'Unknown events'), signOut);
  const api = new AuditApi(key);
  const hash = location.hash.replace(/^#/, '');
  const [path = '', search = ''] = hash.split('?');
  const stream = /^\/stream\/([A-Za-z0-9_-]{1,128})$/.exec(path);
  if (stream?.[1] !== undefined) stop = streamView(root, api, stream[1]);
  else if (path === '/unknown') unknownView(root, api);
  else stop = streamsView(root, api, new URLSearchParams(search));
  root.focus();
}

window.addEventListener('hashchange', route);
route();
