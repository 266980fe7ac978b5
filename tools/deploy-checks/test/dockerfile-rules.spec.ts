import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@llm-stream/testing';
import { parseDockerfile } from '../src/dockerfile.js';
import { lintDockerfile, type Problem } from '../src/dockerfile-rules.js';
import { parseDockerIgnore } from '../src/dockerignore.js';
import { dockerfileContext } from '../src/image-context.js';

// Each rule is shown to fire: the real gateway Dockerfile, broken in one way at a time.
const root = repoRoot();
const gateway = readFileSync(join(root, 'apps/gateway/Dockerfile'), 'utf8');
const context = dockerfileContext(root, 'gateway');

function lint(text: string, overrides: Partial<typeof context> = {}): Problem[] {
  const parsed = parseDockerfile(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return lintDockerfile(parsed.value, { ...context, ...overrides });
}

function rulesOf(problems: readonly Problem[]): string[] {
  return [...new Set(problems.map((problem) => problem.rule))].sort();
}

function edit(search: string | RegExp, replacement: string): string {
  const edited = gateway.replace(search, replacement);
  if (edited === gateway) throw new Error(`the gateway Dockerfile no longer contains ${String(search)}`);
  return edited;
}

describe('Dockerfile rules', () => {
  it('pass the unmodified gateway Dockerfile', () => {
    expect(lint(gateway)).toEqual([]);
  });

  it.each<[string, string, string | RegExp, string]>([
    ['a floating base tag', 'pinned-base', 'ARG NODE_VERSION=24.22.3', 'ARG NODE_VERSION=22'],
    ['latest', 'pinned-base', 'ARG NODE_VERSION=24.22.3', 'ARG NODE_VERSION=latest'],
    ['a non-LTS Node', 'node-lts', 'ARG NODE_VERSION=24.22.3', 'ARG NODE_VERSION=23.11.1'],
    ['a Node that production dependencies do not support', 'node-engines', 'ARG NODE_VERSION=24.22.3', 'ARG NODE_VERSION=20.19.5'],
    ['stages on different Node releases', 'same-node', 'FROM node:${NODE_VERSION}-bookworm-slim AS runtime', 'FROM node:22.22.0-bookworm-slim AS runtime'],
    ['no USER', 'non-root', /^USER node$/m, ''],
    ['USER root', 'non-root', /^USER node$/m, 'USER root'],
    ['no NODE_ENV', 'node-env', /^ENV NODE_ENV=production$/m, 'ENV NODE_OPTIONS=--enable-source-maps'],
    ['a secret in ENV', 'no-secrets', /^ENV NODE_ENV=production$/m, 'ENV NODE_ENV=production OPENAI_API_KEY=sk-123'],
    ['a secret build argument', 'no-secrets', 'ARG NODE_VERSION=24.22.3', 'ARG NODE_VERSION=24.22.3\nARG NPM_TOKEN'],
    ['a lib the app loads left out', 'runtime-files', /^COPY --from=build \/app\/libs\/nest-kit\/dist libs\/nest-kit\/dist$/m, ''],
    ['node_modules left out', 'runtime-files', /^COPY --from=deps \/app\/node_modules node_modules$/m, ''],
    ['dev dependencies in the image', 'production-deps', 'RUN npm ci --omit=dev --omit=optional --no-audit', 'RUN npm ci --omit=optional --no-audit'],
    ['a source path the build does not produce', 'copy-source', '/app/apps/gateway/dist apps/gateway/dist', '/app/apps/gateway/out apps/gateway/dist'],
    ['a path moved out of the repository layout', 'copy', '/app/libs/client/dist libs/client/dist', '/app/libs/client/dist client/dist'],
    ['a workspace manifest missing before npm ci', 'npm-ci-manifests', /^COPY apps\/e2e\/package.json apps\/e2e\/$/m, ''],
    ['CMD in shell form', 'cmd', 'CMD ["node", "apps/gateway/dist/main.js"]', 'CMD node apps/gateway/dist/main.js'],
    ['CMD on another script', 'cmd', 'CMD ["node", "apps/gateway/dist/main.js"]', 'CMD ["node", "apps/gateway/dist/app.js"]'],
    ['ADD', 'copy', 'COPY libs libs', 'ADD libs libs'],
    ['another port', 'expose', 'EXPOSE 8080', 'EXPOSE 3000'],
    ['a HEALTHCHECK on a route the app does not serve', 'healthcheck', "'/health/live'", "'/healthz'"],
    ['a single stage', 'multi-stage', /^FROM (manifests|node:\$\{NODE_VERSION\}-bookworm-slim) AS (build|deps|runtime)\n/gm, ''],
  ])('catch %s (%s)', (_case, rule, search, replacement) => {
    expect(rulesOf(lint(edit(search, replacement)))).toContain(rule);
  });

  it('catch an image on another Node major than the tests run on (tested-node)', () => {
    expect(rulesOf(lint(gateway, { testedNode: '26.1.0' }))).toEqual(['tested-node']);
    expect(rulesOf(lint(gateway, { testedNode: null }))).toEqual(['tested-node']);
  });

  it('catch a source that .dockerignore keeps out of the context', () => {
    expect(rulesOf(lint(gateway, { ignore: parseDockerIgnore('libs\n') }))).toContain('copy-source');
  });
});

describe('Dockerfile rules for a command that serves nothing (the CLI)', () => {
  const cli = readFileSync(join(root, 'apps/cli/Dockerfile'), 'utf8');
  const cliContext = dockerfileContext(root, 'cli');
  const lintCli = (text: string): Problem[] => {
    const parsed = parseDockerfile(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return lintDockerfile(parsed.value, cliContext);
  };
  const editCli = (search: string | RegExp, replacement: string): string => {
    const edited = cli.replace(search, replacement);
    if (edited === cli) throw new Error(`the CLI Dockerfile no longer contains ${String(search)}`);
    return edited;
  };

  it('have no port to compare with, and pass the CLI Dockerfile', () => {
    expect(cliContext.port).toBeNull();
    expect(lintCli(cli)).toEqual([]);
  });

  it.each<[string, string, string | RegExp, string]>([
    ['a port', 'expose', /^USER node$/m, 'USER node\nEXPOSE 8080'],
    ['a HEALTHCHECK', 'healthcheck', /^USER node$/m, 'USER node\nHEALTHCHECK CMD ["node", "-e", "process.exit(0)"]'],
    ['a lib the CLI loads left out', 'runtime-files', /^COPY --from=build \/app\/libs\/pipeline\/dist libs\/pipeline\/dist$/m, ''],
    ['CMD on another script', 'cmd', 'CMD ["node", "apps/cli/dist/main.js"]', 'CMD ["node", "apps/cli/dist/cli.js"]'],
  ])('catch %s (%s)', (_case, rule, search, replacement) => {
    expect(rulesOf(lintCli(editCli(search, replacement)))).toContain(rule);
  });
});
