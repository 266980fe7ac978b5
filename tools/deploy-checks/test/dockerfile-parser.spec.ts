import { parseAssignments, parseDockerfile, substitute } from '../src/dockerfile.js';
import { parseDockerIgnore } from '../src/dockerignore.js';
import { satisfies } from '../src/semver-range.js';

describe('parseDockerfile', () => {
  it('joins continued lines, drops comments inside them and reads flags and exec form', () => {
    const parsed = parseDockerfile(
      ['# syntax=docker/dockerfile:1', 'ARG V=22.1.0', 'FROM node:${V}-slim AS build', 'RUN a \\', '  # a comment', '', ' && b', 'COPY --from=build --chown=1:1 /app/x y', 'CMD ["node", "x.js"]'].join('\n'),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [stage] = parsed.value.stages;
    expect(stage?.image).toBe('node:22.1.0-slim');
    expect(stage?.name).toBe('build');
    expect(stage?.instructions.map((item) => [item.keyword, item.line, item.args])).toEqual([
      ['RUN', 4, 'a && b'],
      ['COPY', 8, '/app/x y'],
      ['CMD', 9, '["node", "x.js"]'],
    ]);
    expect(stage?.instructions[1]?.flags).toEqual({ from: 'build', chown: '1:1' });
    expect(stage?.instructions[2]?.json).toEqual(['node', 'x.js']);
  });

  it('reports unknown instructions and instructions before FROM', () => {
    expect(parseDockerfile('FROM a:1.0.0\nFETCH x')).toMatchObject({ ok: false, error: { line: 2 } });
    expect(parseDockerfile('RUN x\nFROM a:1.0.0')).toMatchObject({ ok: false, error: { line: 1 } });
    expect(parseDockerfile('# nothing')).toMatchObject({ ok: false });
  });

  it('reads ENV assignments and substitutes variables', () => {
    expect(parseAssignments('A=1 B="two words" C=')).toEqual({ A: '1', B: 'two words', C: '' });
    expect(parseAssignments('LEGACY some value')).toEqual({ LEGACY: 'some value' });
    expect(substitute('${A}-$B-${C:-c}-${D}', { A: 'a', B: 'b' })).toBe('a-b-c-${D}');
  });
});

describe('parseDockerIgnore', () => {
  const ignore = parseDockerIgnore('# comment\n**/node_modules\n**/dist\napps/*/test\n*.log\n!keep.log\n');

  it.each([
    ['node_modules', true],
    ['libs/contract/node_modules/x', true],
    ['apps/gateway/dist', true],
    ['apps/gateway/test/a.spec.ts', true],
    ['debug.log', true],
    ['keep.log', false],
    ['apps/gateway/src/main.ts', false],
    ['conformance/transcripts', false],
  ])('%s excluded: %s', (path, excluded) => {
    expect(ignore.isExcluded(path)).toBe(excluded);
  });
});

describe('satisfies (engines.node)', () => {
  it.each([
    ['22.23.5', '>=20.19', true],
    ['20.20.2', '>= 22.x', false],
    ['22.0.0', '>= 22.x', true],
    ['22.11.0', '^20.19.0 || >=22.12.0', false],
    ['22.12.0', '^20.19.0 || >=22.12.0', true],
    ['22.23.5', '20.x || 22.x || 23.x', true],
    ['21.0.0', '20.x || 22.x', false],
    ['22.23.5', '^18.19.0 || >=20.6.0', true],
    ['22.23.5', '>=9.3.0 || >=8.10.0 <9.0.0', true],
    ['22.23.5', '6.* || 8.* || >= 10.*', true],
    ['22.23.5', '*', true],
    ['22.23.5', '~22.23.1', true],
    ['22.24.0', '~22.23.1', false],
    ['22.23.5', '<22', false],
    ['22.23.5', '<=22', true],
    ['22.23.5', '>22', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('refuses what it cannot read instead of passing it', () => {
    expect(satisfies('22.1.0', '1.0.0 - 2.0.0')).toMatchObject({ code: 'unsupported_range' });
    expect(satisfies('22.1.0', '>=abc')).toMatchObject({ code: 'unsupported_range' });
  });
});
