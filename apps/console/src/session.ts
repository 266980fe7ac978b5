/**
 * The gateway key the console signs in with. sessionStorage: it lives as long as the tab, is never written to
 * disk by the console and is not shared with other tabs.
 */
const KEY = 'llm-stream-console.key';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
