import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readAppFacts } from '../src/app-facts.js';
import { CONFIGURATION_DOC, DOCUMENTED_SERVICES, renderConfigTable, settingDescriptions, withConfigTable } from '../src/config-table.js';

const root = resolve(__dirname, '../../..');

describe(`${CONFIGURATION_DOC}'s configuration table`, () => {
  it('lists exactly what the services read, with their defaults (UPDATE_CONFIGURATION=1 rewrites it)', () => {
    const path = join(root, CONFIGURATION_DOC);
    const document = readFileSync(path, 'utf8');
    const expected = withConfigTable(document, renderConfigTable(root));
    if (process.env['UPDATE_CONFIGURATION'] === '1') writeFileSync(path, expected);
    expect(document).toBe(expected);
  });

  it('reads TSDoc descriptions above decorated properties', () => {
    const source = [
      'export class X {',
      '  /** How long. */',
      '  @Type(() => Number)',
      '  @IsInt()',
      '  A_MS = 5;',
      '',
      '  /**',
      '   * Two lines',
      '   * of text.',
      '   */',
      '  @IsString()',
      "  B: 'x' | 'y' = 'x';",
      '  @IsString()',
      "  C = '';",
      '}',
    ].join('\n');
    expect([...settingDescriptions(source)]).toEqual([
      ['A_MS', 'How long.'],
      ['B', 'Two lines of text.'],
      ['C', ''],
    ]);
  });
});

/** The variables named in the first column of the "## Configuration" table of an app's README. */
function documentedVariables(readme: string): string[] {
  const section = /^## Configuration[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
  const names = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''));
  return [...new Set(names)].sort();
}

describe.each(DOCUMENTED_SERVICES.map(({ app }) => app))("apps/%s/README.md's configuration table", (app) => {
  it('names exactly the variables the service reads', () => {
    const settings = Object.keys(readAppFacts(root, app).config?.settings ?? {}).sort();
    expect(settings.length).toBeGreaterThan(0);
    expect(documentedVariables(readFileSync(join(root, 'apps', app, 'README.md'), 'utf8'))).toEqual(settings);
  });
});
