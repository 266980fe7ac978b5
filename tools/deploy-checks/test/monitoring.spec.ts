import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { findExecutable, getFreePort, repoRoot, startNatsServer, startProcess, type ManagedProcess, type NatsServerHandle } from '@llm-stream/testing';
import { renderKustomization, type KubeObject } from '../src/kustomize.js';
import { dashboardExpressions, exposedMetrics, metricsOf, ruleGroups } from '../src/monitoring.js';
import { loadOverlay } from '../src/overlay-model.js';
import { selects, type LabelSelector } from '../src/workloads.js';

// deploy/monitoring: the ServiceMonitor scrapes the three services, the alert rules pass promtool, and every
// metric the rules and the dashboard name is one the running services expose.
const root = repoRoot();
const rendered = renderKustomization(root, 'deploy/monitoring');
const objects: KubeObject[] = rendered.ok ? rendered.objects : [];
const SERVICES = ['gateway', 'normalizer', 'audit-log'] as const;

describe('deploy/monitoring', () => {
  it('renders a ServiceMonitor, a PrometheusRule and a dashboard ConfigMap, without warnings', () => {
    expect(rendered.ok ? rendered.warnings : rendered.error.message).toBe('');
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual(['ConfigMap/llm-stream-dashboard', 'PrometheusRule/llm-stream', 'ServiceMonitor/llm-stream']);
  });

  it('scrapes the http port of exactly the three services of the production overlay', () => {
    const monitor = objects.find((object) => object.kind === 'ServiceMonitor') as (KubeObject & { spec: { selector: LabelSelector; endpoints: { port: string; path: string }[] } }) | undefined;
    const services = loadOverlay(root, 'production').objects.filter((object) => object.kind === 'Service') as (KubeObject & { spec: { ports: { name?: string }[] } })[];
    const scraped = services.filter((service) => selects(monitor?.spec.selector, service.metadata.labels));
    expect(scraped.map((service) => service.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const service of scraped) expect(service.spec.ports.map((port) => port.name)).toContain(monitor?.spec.endpoints[0]?.port);
    expect(monitor?.spec.endpoints[0]?.path).toBe('/metrics');
  });

  it('has alert rules that pass promtool check rules', () => {
    const promtool = findExecutable('promtool', ['/usr/bin', '/usr/local/bin']);
    if (promtool === undefined) throw new Error('promtool is not installed (Debian package prometheus): npm test checks it first');
    const dir = mkdtempSync(join(tmpdir(), 'llm-stream-rules-'));
    try {
      const file = join(dir, 'rules.yaml');
      writeFileSync(file, stringify({ groups: ruleGroups(objects) }));
      expect(execFileSync(promtool, ['check', 'rules', file], { encoding: 'utf8' })).toMatch(/SUCCESS: 9 rules found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('against the running services', () => {
    let nats: NatsServerHandle;
    let dir: string;
    const running: ManagedProcess[] = [];
    const exposed = new Set<string>();

    beforeAll(async () => {
      nats = await startNatsServer();
      dir = mkdtempSync(join(tmpdir(), 'llm-stream-metrics-'));
      await Promise.all(
        SERVICES.map(async (app) => {
          const port = await getFreePort();
          const child = startProcess(process.execPath, [join(root, 'apps', app, 'dist/main.js')], {
            name: app,
            env: { NATS_URL: nats.url, HTTP_HOST: '127.0.0.1', HTTP_PORT: String(port), AUDIT_SQLITE_PATH: join(dir, 'audit.sqlite') },
          });
          running.push(child);
          await child.waitForLine(new RegExp(`"msg":"${app} ready"`), 60_000);
          for (const name of exposedMetrics(await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text())) exposed.add(name);
        }),
      );
    }, 120_000);

    afterAll(async () => {
      await Promise.all(running.map((child) => child.stop('SIGTERM', 10_000)));
      await nats.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('expose every metric the alert rules name', () => {
      const named = ruleGroups(objects).flatMap((group) => group.rules.flatMap((rule) => metricsOf(rule.expr).map((metric) => `${rule.alert ?? rule.record ?? '?'}: ${metric}`)));
      expect(named.length).toBeGreaterThanOrEqual(6);
      expect(named.filter((entry) => !exposed.has(entry.split(': ')[1] ?? ''))).toEqual([]);
    });

    it('expose every metric the dashboard names', () => {
      const named = dashboardExpressions(objects).flatMap(({ panel, expr }) => metricsOf(expr).map((metric) => `${panel}: ${metric}`));
      expect(named.length).toBeGreaterThan(9);
      expect(named.filter((entry) => !exposed.has(entry.split(': ').at(-1) ?? ''))).toEqual([]);
    });

    it('would catch a metric no service exposes', () => {
      expect(metricsOf('rate(llm_streams_totl[5m]) + histogram_quantile(0.5, llm_gateway_added_latency_seconds_bucket)').filter((metric) => !exposed.has(metric))).toEqual(['llm_streams_totl']);
    });
  });
});
