import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderConfigTable, settingDescriptions, withConfigTable } from '../src/config-table.js';

const root = resolve(__dirname, '../../..');

describe("README's configuration table", () => {
  it('lists exactly what the services read, with their defaults (UPDATE_README=1 rewrites it)', () => {
    const path = join(root, 'README.md');
    const readme = readFileSync(path, 'utf8');
    const expected = withConfigTable(readme, renderConfigTable(root));
    if (process.env['UPDATE_README'] === '1') writeFileSync(path, expected);
    expect(readme).toBe(expected);
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
