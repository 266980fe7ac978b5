import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from '@llm-stream/testing';

/** Debian's Chromium (`.ci/run` installs the package when missing; CHROMIUM_BIN as in the prerequisites check). */
export const CHROMIUM = process.env['CHROMIUM_BIN'] ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Screenshots of the suite: test artifacts, git-ignored, never committed. */
export const ARTIFACTS_DIR = join(repoRoot(), 'artifacts', 'console');

export interface ConsoleBrowser {
  readonly context: BrowserContext;
  /** A new tab at 1366x768 (a laptop screen) that records CSP violations and layout shifts from its first script. */
  newPage(): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** Chromium with a fresh profile directory, removed on close. */
export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'llm-stream-chromium-'));
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1366, height: 768 } });
  // Runs before the console's own script in every document (injected by the DevTools protocol, not subject to the CSP).
  await context.addInitScript(() => {
    const watch = window as unknown as { __violations: string[]; __cls: number };
    watch.__violations = [];
    watch.__cls = 0;
    document.addEventListener('securitypolicyviolation', (event) => watch.__violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) watch.__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return {
    context,
    newPage: () => context.newPage(),
    screenshot: async (page, name) => {
      await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in on the console's form with `key` and waits for the streams list. */
export async function signIn(page: Page, consoleUrl: string, key: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.fill('#key', key);
  await page.press('#key', 'Enter');
  await page.waitForSelector('#streams');
}
