import type { KubeObject } from './kustomize.js';

/** The monitoring kustomization's parts the checks read. */
export interface RuleGroup {
  readonly name: string;
  readonly rules: readonly { readonly alert?: string; readonly record?: string; readonly expr: string }[];
}

interface DashboardPanel {
  readonly title: string;
  readonly targets?: readonly { readonly expr: string }[];
}

/** The PrometheusRule's groups (what promtool checks as a rule file). */
export function ruleGroups(objects: readonly KubeObject[]): RuleGroup[] {
  return objects.filter((object) => object.kind === 'PrometheusRule').flatMap((object) => (object['spec'] as { groups: RuleGroup[] }).groups);
}

/** Every PromQL expression of the dashboards shipped as ConfigMaps labelled grafana_dashboard. */
export function dashboardExpressions(objects: readonly KubeObject[]): { panel: string; expr: string }[] {
  return objects
    .filter((object) => object.kind === 'ConfigMap' && object.metadata.labels?.['grafana_dashboard'] === '1')
    .flatMap((object) => Object.values(object['data'] as Record<string, string>))
    .flatMap((json) => (JSON.parse(json) as { panels: DashboardPanel[] }).panels)
    .flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
}

/** The project's metric names an expression reads (`llm_*`; a histogram's _bucket/_sum/_count series by their metric). */
export function metricsOf(expr: string): string[] {
  const names = [...expr.matchAll(/\b(llm_[a-z0-9_]+)\b/g)].map((match) => (match[1] ?? '').replace(/_(bucket|sum|count)$/, ''));
  return [...new Set(names)];
}

/** Metric names from Prometheus text exposition (`# TYPE <name> <type>` lines: listed even before a first sample). */
export function exposedMetrics(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((match) => match[1] ?? ''));
}
