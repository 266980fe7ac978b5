import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { repoRoot, waitFor } from '@llm-stream/testing';
import { AUDIT_KEYS, runCli, startAuditLog, type RunningAuditLog } from './support/audit-log.js';
import { launchConsoleBrowser, signIn, type ConsoleBrowser } from './support/console-browser.js';
import { openStream, postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { providerRequestBody } from './support/provider-requests.js';
import { registerScenario } from './support/replay-control.js';
import { offsetInsideRecord, textTranscript } from './support/transcripts.js';

const XSS_CASE = 'e2e_console_markup';
/** Model output that would run if the console rendered it as HTML: each sets a global flag. */
const XSS_TEXTS = ['Look: <img src=x onerror="window.__xssRan=1">', ' and <script>window.__xssRan=2</script>', ' <svg onload="window.__xssRan=3"></svg> end.'];

type Watched = Window & { __xssRan?: number; __violations: string[]; __cls: number };

/**
 * The diagnostics console in headless Chromium (Debian's, driven by playwright-core) against the real services:
 * replay provider, gateway, NATS, normalizer and the audit log serving the console at /console/.
 */
describe('the diagnostics console in Chromium', () => {
  let pipeline: Pipeline;
  let audit: RunningAuditLog;
  let browser: ConsoleBrowser;
  let consoleUrl: string;
  const streams: Record<string, string> = {};

  /** A stream through the gateway (model = transcript case or `scenario:<id>`), once the audit log stored it. */
  const stored = async (model: string, name: string): Promise<string> => {
    const reply = await postStream(pipeline.gatewayUrl, 'anthropic', providerRequestBody('anthropic', model));
    if (reply.streamId === undefined) throw new Error(`${name}: the gateway answered ${String(reply.status)} without a stream`);
    await audit.waitForStored(reply.streamId);
    streams[name] = reply.streamId;
    return reply.streamId;
  };

  beforeAll(async () => {
    pipeline = await startPipeline();
    audit = await startAuditLog(pipeline, 'sqlite');
    consoleUrl = `${audit.url}/console/`;
    writeFileSync(join(pipeline.transcriptsDir, 'anthropic', `${XSS_CASE}.sse`), textTranscript(XSS_TEXTS));
    const tool = readFileSync(join(repoRoot(), 'conformance/transcripts/anthropic/tool_fragmented_json.sse'));
    const cutTool = await registerScenario(pipeline.replay.url, { responses: [{ transcript: 'tool_fragmented_json', cut_after_bytes: offsetInsideRecord(tool, '"input_json_delta"', 3) }] });
    await stored('simple_text', 'simple');
    await stored(XSS_CASE, 'markup');
    await stored('unknown_event_type', 'unknown');
    await stored(`scenario:${cutTool}`, 'cut');
    browser = await launchConsoleBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser.close();
    await audit.stop();
    await pipeline.stop();
  });

  const watched = (page: Page): Promise<{ xss: number | null; violations: string[]; cls: number }> =>
    page.evaluate(() => {
      const view = window as unknown as Watched;
      return { xss: view.__xssRan ?? null, violations: view.__violations, cls: view.__cls };
    });

  it('is served with a strict Content-Security-Policy: scripts and styles of its own origin only, no inline code, no eval', async () => {
    const response = await fetch(consoleUrl);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=/);
    expect((await fetch(`${audit.url}/console/../v1/stats`)).status).not.toBe(200);
    expect((await fetch(`${audit.url}/console/assets/nothing.js`)).status).toBe(404);
  });

  it('says why a key is refused: unknown (401), or without an audit scope (403)', async () => {
    const page = await browser.newPage();
    await page.goto(consoleUrl);
    await page.fill('#key', 'not-a-key-of-anyone');
    await page.press('#key', 'Enter');
    await page.waitForSelector('#sign-in-error:has-text("401")');
    expect(await page.textContent('#sign-in-error')).toContain('does not know this key');
    await page.fill('#key', AUDIT_KEYS.streamsOnly);
    await page.press('#key', 'Enter');
    await page.waitForSelector('#sign-in-error:has-text("403")');
    expect(await page.textContent('#sign-in-error')).toContain('audit:read or audit:full');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  it('signs in, filters, opens the interrupted tool-call stream by keyboard, shows the raw frame where it was cut, and exports it', async () => {
    const page = await browser.newPage();
    await signIn(page, consoleUrl, AUDIT_KEYS.full);
    expect(await page.evaluate(() => sessionStorage.getItem('llm-stream-console.key'))).toBe(AUDIT_KEYS.full);
    await page.waitForSelector(`tr[data-stream-id="${streams['cut'] ?? ''}"]`);
    await page.waitForSelector('#chart svg.chart rect.bar');
    await browser.screenshot(page, 'streams');
    await page.selectOption('#filter-status', 'interrupted');
    await page.click('#apply-filters');
    await page.waitForFunction(() => location.hash.includes('status=interrupted'));
    await page.waitForSelector('#streams tbody tr');
    const statuses = await page.$$eval('#streams tbody tr', (rows): string[] => rows.map((row) => row.getAttribute('class') ?? ''));
    expect(statuses).toEqual([expect.stringContaining('interrupted')]);
    // Keyboard: the row is in the tab order and Enter opens it.
    await page.focus(`tr[data-stream-id="${streams['cut'] ?? ''}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#app[data-rendered="final"]');
    expect(await page.textContent('#ending')).toMatch(/^Interrupted: stream\.error, category transport_interrupted/);
    expect(await page.textContent('#trace-id')).toMatch(/^[\da-f]{32}$/);
    const cut = await page.waitForSelector('#raw tr.cut.selected');
    // The frame as far as it arrived: the provider's record cut inside its tool-argument delta, opened whole below.
    expect(await cut.textContent()).toContain('"delta":{"type":"input_js');
    expect(await cut.textContent()).toContain('cut here');
    expect(await page.textContent('#raw-detail')).toContain('Cut here');
    expect(await page.textContent('#raw-detail pre')).toContain('"delta":{"type":"input_js');
    // The table by keyboard: Home selects the first record, the arrow key the next one, each shown whole.
    await page.focus('#raw');
    await page.keyboard.press('Home');
    expect(await page.textContent('#raw-detail .detail-head')).toMatch(/^raw 1 · /);
    await page.keyboard.press('ArrowDown');
    expect(await page.textContent('#raw-detail .detail-head')).toMatch(/^raw 2 · /);
    await page.click('#show-cut');
    await page.waitForSelector('#raw tr.cut.selected');
    expect(await page.textContent('#result')).toContain('Draft');
    expect(await page.textContent('#result')).toContain('not parsed');
    await page.waitForSelector('#verify .ok');
    expect(await page.textContent('#verify')).toContain('chain intact');
    expect(await page.textContent('#timeline-facts')).toMatch(/Time to first delta: \d+ ms/);
    await page.waitForSelector('#replay .ok');
    expect(await page.textContent('#replay')).toContain('Same outcome');
    await browser.screenshot(page, 'interrupted-tool-call');
    // Export: the three files `llm-stream export` writes for the same stream, from the same library code.
    const downloads: Download[] = [];
    page.on('download', (download) => downloads.push(download));
    await page.click('#export');
    await waitFor(() => downloads.length === 3, { timeoutMs: 20_000, description: 'the three fixture downloads' });
    const out = mkdtempSync(join(tmpdir(), 'llm-stream-console-export-'));
    try {
      const cli = await runCli(['export', streams['cut'] ?? '', '--audit', audit.url, '--key', AUDIT_KEYS.full, '--out', out]);
      expect(cli.code).toBe(0);
      const downloaded = Object.fromEntries(await Promise.all(downloads.map(async (download) => [download.suggestedFilename(), readFileSync(await download.path())] as const)));
      const base = `anthropic__${streams['cut'] ?? ''}`;
      expect(Object.keys(downloaded).sort()).toEqual([`${base}.events.json`, `${base}.expect.json`, `${base}.sse`]);
      const cliFile = (suffix: string): Buffer => readFileSync(join(out, 'anthropic', `${streams['cut'] ?? ''}${suffix}`));
      expect(downloaded[`${base}.sse`]?.equals(cliFile('.sse'))).toBe(true);
      expect(downloaded[`${base}.events.json`]?.equals(cliFile('.events.json'))).toBe(true);
      const withoutNotes = (bytes: Buffer | undefined): unknown => ({ ...(JSON.parse(bytes?.toString('utf8') ?? 'null') as Record<string, unknown>), notes: undefined });
      expect(withoutNotes(downloaded[`${base}.expect.json`])).toEqual(withoutNotes(cliFile('.expect.json')));
      expect(withoutNotes(downloaded[`${base}.expect.json`])).toMatchObject({ terminal: 'interrupted', error_category: 'transport_interrupted' });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect(await watched(page)).toMatchObject({ violations: [] });
    await page.close();
  });

  it('renders markup in model output as text: nothing runs, no element is created, no CSP violation is even attempted', async () => {
    const page = await browser.newPage();
    await signIn(page, consoleUrl, AUDIT_KEYS.full);
    await page.goto(`${consoleUrl}#/stream/${streams['markup'] ?? ''}`);
    await page.waitForSelector('#app[data-rendered="final"]');
    expect(await page.textContent('#result')).toContain(XSS_TEXTS.join(''));
    expect(await page.textContent('#raw')).toContain('onerror=');
    // Rendered as HTML, the <img> and <svg> would be elements (and their handlers refused by the CSP, a violation).
    expect(await page.$$eval('#app img, #app script, #app svg[onload], #app [onerror]', (nodes) => nodes.length)).toBe(0);
    expect(await watched(page)).toMatchObject({ xss: null, violations: [] });
    await browser.screenshot(page, 'markup-as-text');
    await page.close();
  });

  it('lists unknown provider events by provider and type, each linking to its streams', async () => {
    const page = await browser.newPage();
    await signIn(page, consoleUrl, AUDIT_KEYS.full);
    await page.click('a[href="#/unknown"]');
    const link = await page.waitForSelector(`#unknown a[href="#/stream/${streams['unknown'] ?? ''}"]`);
    expect(await page.textContent('#unknown')).toContain('anthropic');
    await link.click();
    await page.waitForSelector('#app[data-rendered="final"]');
    expect(await page.textContent('#raw')).toContain('stream.warning');
    await page.close();
  });

  it('keeps the layout still (cumulative layout shift 0) while 500 events are appended to a live stream', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 500, frame_interval_ms: 20 } }] });
    const page = await browser.newPage();
    await signIn(page, consoleUrl, AUDIT_KEYS.full);
    const response = await openStream(pipeline.gatewayUrl, 'anthropic', providerRequestBody('anthropic', `scenario:${scenario}`));
    const streamId = response.headers.get('x-stream-id') ?? '';
    const body = response.text();
    await waitFor(async () => (await fetch(`${audit.url}/v1/streams/${streamId}`, { headers: { authorization: `Bearer ${AUDIT_KEYS.full}` } })).status === 200, {
      timeoutMs: 20_000,
      description: 'the live stream to be stored',
    });
    const reads: string[] = [];
    page.on('request', (request) => reads.push(request.url()));
    await page.goto(`${consoleUrl}#/stream/${streamId}`);
    await page.waitForSelector('#stream-status:has-text("running")');
    const before = await watched(page);
    await page.waitForSelector('#app[data-rendered="final"]', { timeout: 60_000 });
    await body;
    const shown = Number(await page.getAttribute('#raw', 'data-records'));
    const whole = (await (await fetch(`${audit.url}/v1/streams/${streamId}/raw`, { headers: { authorization: `Bearer ${AUDIT_KEYS.full}` } })).json()) as { records: unknown[] };
    expect(shown).toBeGreaterThan(500);
    expect(shown).toBe(whole.records.length);
    // Only the rows in view are drawn, and each poll asked only for what was stored since the previous one.
    expect(await page.$$eval('#raw tbody tr.raw-row', (rows) => rows.length)).toBeLessThan(60);
    expect(reads.filter((url) => /[?&]after_seq=[1-9]/.test(url)).length).toBeGreaterThan(0);
    expect(reads.filter((url) => /[?&]after_js_seq=[1-9]/.test(url)).length).toBeGreaterThan(0);
    expect({ before: before.cls, after: (await watched(page)).cls }).toEqual({ before: 0, after: 0 });
    await page.close();
  });

  it('prints the time until a 5,000-event stream is rendered, cold (a figure, not an assertion on time)', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 5_000, frame_interval_ms: 0 } }] });
    const streamId = await stored(`scenario:${scenario}`, 'large');
    // The two reads the page waits for, timed alone (from the test, warm): how much of the figure is the server's.
    const apiStarted = Date.now();
    const headers = { authorization: `Bearer ${AUDIT_KEYS.full}` };
    await Promise.all([fetch(`${audit.url}/v1/streams/${streamId}`, { headers }).then((r) => r.arrayBuffer()), fetch(`${audit.url}/v1/streams/${streamId}/raw`, { headers }).then((r) => r.arrayBuffer())]);
    const apiMs = Date.now() - apiStarted;
    // A live view's poll of the same stream once it holds everything: the detail after its last seq and the raw
    // page after its last LLM_RAW sequence (the replay continues the cursor the previous page left), ten in a row.
    const whole = (await (await fetch(`${audit.url}/v1/streams/${streamId}/raw?after_js_seq=0`, { headers })).json()) as { page: { last_js_seq: number } };
    const { stream } = (await (await fetch(`${audit.url}/v1/streams/${streamId}`, { headers })).json()) as { stream: { event_count: number } };
    const pollStarted = Date.now();
    for (let poll = 0; poll < 10; poll += 1) {
      await Promise.all([fetch(`${audit.url}/v1/streams/${streamId}?after_seq=${String(stream.event_count)}`, { headers }).then((r) => r.arrayBuffer()), fetch(`${audit.url}/v1/streams/${streamId}/raw?after_js_seq=${String(whole.page.last_js_seq)}`, { headers }).then((r) => r.arrayBuffer())]);
    }
    const pollMs = (Date.now() - pollStarted) / 10;
    const cold = await launchConsoleBrowser();
    try {
      await cold.context.addInitScript((key: string) => {
        sessionStorage.setItem('llm-stream-console.key', key);
      }, AUDIT_KEYS.full);
      const page = await cold.newPage();
      const started = Date.now();
      await page.goto(`${consoleUrl}#/stream/${streamId}`);
      await page.waitForSelector('#app[data-rendered="final"]', { timeout: 60_000 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const elapsed = Date.now() - started;
      const counts = await page.evaluate(() => ({ summary: document.getElementById('summary')?.textContent ?? '', records: Number(document.getElementById('raw')?.dataset['records']) }));
      // Where the time went, as the browser saw it: the script loaded, and the audit API's answers to the first reads.
      const phases = await page.evaluate(() => {
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const end = (match: (name: string) => boolean): number => Math.round(Math.max(0, ...resources.filter((entry) => match(entry.name)).map((entry) => entry.responseEnd)));
        return { script: end((name) => name.endsWith('.js')), reads: end((name) => /\/v1\/streams\/[^/?]+(\?|\/raw)?/.test(name) && !/verify|replay/.test(name)) };
      });
      expect(counts.records).toBeGreaterThan(5_000);
      // The last record is one End key away, drawn and shown whole.
      await page.focus('#raw');
      await page.keyboard.press('End');
      await page.waitForSelector(`#raw tr.raw-row.selected[data-index="${String(counts.records - 1)}"]`);
      process.stdout.write(`console: ${counts.summary.replace(/.*· (\d+ events · \d+ raw records).*/, '$1')}: timeline and frames rendered ${String(elapsed)} ms after navigation, cold (fresh profile; script loaded at ${String(phases.script)} ms, the detail and raw answers in by ${String(phases.reads)} ms); the detail and raw reads alone took ${String(apiMs)} ms, a live poll of it ${pollMs.toFixed(1)} ms\n`);
      await cold.screenshot(page, 'large-stream');
    } finally {
      await cold.close();
    }
  }, 180_000);
});
