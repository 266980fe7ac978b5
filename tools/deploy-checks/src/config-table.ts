import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAppFacts, type SettingValue } from './app-facts.js';

/** The document that holds the generated configuration table, relative to the repository root. */
export const CONFIGURATION_DOC = 'docs/configuration.md';

/** The settings every service shares are declared (and described) once, in this base class. */
const SHARED_SOURCE = 'libs/service-kit/src/service-config.ts';

/** The services whose settings the configuration table documents, in its column order. */
export const DOCUMENTED_SERVICES = [
  { app: 'gateway', source: 'apps/gateway/src/config/gateway-config.ts' },
  { app: 'normalizer', source: 'apps/normalizer/src/config/normalizer-config.ts' },
  { app: 'audit-log', source: 'apps/audit-log/src/config/audit-config.ts' },
] as const;

export const TABLE_START = '<!-- config-table:start -->';
export const TABLE_END = '<!-- config-table:end -->';

/**
 * The first sentence of each property's TSDoc in a config class source: `/** text *\/` right above `NAME =`
 * (decorator lines in between are skipped). Properties without a comment get an empty description.
 */
export function settingDescriptions(source: string): Map<string, string> {
  const descriptions = new Map<string, string>();
  const lines = source.split('\n');
  let comment: string[] | undefined;
  let pending = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('/**')) {
      comment = [];
      const inline = /^\/\*\*(.*?)\*\/$/.exec(line);
      if (inline) {
        pending = clean(inline[1] ?? '');
        comment = undefined;
      } else {
        comment.push(line.slice(3));
      }
      continue;
    }
    if (comment !== undefined) {
      if (line.endsWith('*/')) {
        comment.push(line.slice(0, -2));
        pending = clean(comment.join(' '));
        comment = undefined;
      } else {
        comment.push(line.replace(/^\*\s?/, ''));
      }
      continue;
    }
    const property = /^([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=/.exec(line);
    if (property?.[1] !== undefined) {
      descriptions.set(property[1], pending);
      pending = '';
    } else if (line !== '' && !line.startsWith('@')) {
      pending = '';
    }
  }
  return descriptions;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function showDefault(value: SettingValue | undefined): string {
  if (value === undefined) return '';
  if (value === '') return '(empty)';
  return `\`${String(value)}\``;
}

/** The markdown table: one row per variable, the services that read it, its default and what it does. */
export function renderConfigTable(root: string): string {
  const rows = new Map<string, { services: string[]; defaults: Set<string>; description: string }>();
  for (const { app, source } of DOCUMENTED_SERVICES) {
    const facts = readAppFacts(root, app);
    const settings = facts.config?.settings ?? {};
    const descriptions = new Map([
      ...settingDescriptions(readFileSync(join(root, SHARED_SOURCE), 'utf8')),
      ...settingDescriptions(readFileSync(join(root, source), 'utf8')),
    ]);
    for (const [name, value] of Object.entries(settings)) {
      const row = rows.get(name) ?? { services: [], defaults: new Set<string>(), description: '' };
      row.services.push(app);
      row.defaults.add(showDefault(value));
      if (row.description === '') row.description = descriptions.get(name) ?? '';
      rows.set(name, row);
    }
  }
  const header = ['| variable | services | default | meaning |', '|---|---|---|---|'];
  const body = [...rows.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, row]) => `| \`${name}\` | ${row.services.join(', ')} | ${[...row.defaults].join(' / ')} | ${row.description.replace(/\|/g, '\\|')} |`);
  return [...header, ...body].join('\n');
}

/** The document (CONFIGURATION_DOC's text) with its table block replaced. */
export function withConfigTable(document: string, table: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_DOC} lacks the ${TABLE_START} ... ${TABLE_END} block`);
  return `${document.slice(0, start + TABLE_START.length)}\n${table}\n${document.slice(end)}`;
}
