import { ApiFailure, AuditApi } from '../api.js';
import { el, replace } from '../dom.js';
import { storeKey } from '../session.js';

/** Why a key was refused, in the reader's terms. */
export function refusal(error: unknown): string {
  if (!(error instanceof ApiFailure)) return error instanceof Error ? error.message : 'unexpected error';
  if (error.status === 401) return `401 ${error.code}: the audit log does not know this key (${error.message}).`;
  if (error.status === 403) return `403 ${error.code}: this key may not read the audit log; it needs the audit:read or audit:full scope (${error.message}).`;
  return `${String(error.status)} ${error.code}: ${error.message}`;
}

/** The sign-in form: the key is tried on the audit API before it is kept. */
export function signInView(root: HTMLElement, signedIn: () => void, notice?: string): void {
  const input = el('input', { id: 'key', type: 'password', name: 'key', placeholder: 'gateway API key', ariaLabel: 'gateway API key' });
  input.autocomplete = 'off';
  const message = el('p', { id: 'sign-in-error', className: 'error', role: 'alert' }, notice ?? '');
  const form = el(
    'form',
    {
      className: 'sign-in',
      onSubmit: (event) => {
        event.preventDefault();
        const key = input.value.trim();
        if (key === '') {
          replace(message, 'Enter a gateway API key.');
          return;
        }
        replace(message, 'Checking the key…');
        new AuditApi(key).streams(new URLSearchParams({ limit: '1' })).then(
          () => {
            storeKey(key);
            signedIn();
          },
          (error: unknown) => {
            replace(message, refusal(error));
          },
        );
      },
    },
    el('h1', {}, 'Sign in'),
    el('p', {}, 'The console reads the audit API with a gateway key of your tenant (scope audit:read or audit:full). The key stays in this tab (sessionStorage).'),
    el('label', { forId: 'key' }, 'Gateway key'),
    input,
    el('button', { type: 'submit' }, 'Sign in'),
    message,
  );
  replace(root, form);
  input.focus();
}
