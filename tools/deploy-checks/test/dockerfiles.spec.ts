import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@llm-stream/testing';
import { DEPLOYABLE_APPS } from '../src/app-facts.js';
import { parseDockerfile } from '../src/dockerfile.js';
import { lintDockerfile } from '../src/dockerfile-rules.js';
import { dockerfileContext } from '../src/image-context.js';

const root = repoRoot();

describe.each(DEPLOYABLE_APPS)('apps/%s/Dockerfile', (app) => {
  const path = join(root, 'apps', app, 'Dockerfile');

  it('exists and parses', () => {
    expect(existsSync(path)).toBe(true);
    expect(parseDockerfile(readFileSync(path, 'utf8')).ok).toBe(true);
  });

  it('passes every rule against the build output', () => {
    const parsed = parseDockerfile(readFileSync(path, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(lintDockerfile(parsed.value, dockerfileContext(root, app))).toEqual([]);
  });
});
