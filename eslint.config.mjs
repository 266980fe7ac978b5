// One lint config for the whole workspace: type-aware strict rules, exhaustive switches, and the
// dependency direction contract <- adapters <- apps enforced by nx project tags.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const frameworkPackages = [
  '@nestjs/*',
  '@nats-io/*',
  'nats',
  '@opentelemetry/*',
  'rxjs',
  'express',
  'pg',
  'better-sqlite3',
  'prom-client',
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: ['**/dist', '**/out-tsc', '**/node_modules', '**/coverage', '**/*.cjs', '**/*.mjs', '**/__fixtures__/**'],
  },
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:contract',
              onlyDependOnLibsWithTags: ['type:contract'],
              bannedExternalImports: frameworkPackages,
            },
            {
              sourceTag: 'type:adapters',
              onlyDependOnLibsWithTags: ['type:contract'],
              bannedExternalImports: frameworkPackages,
            },
            {
              sourceTag: 'type:service-kit',
              // type:testing: its specs use the Secret volume fixture.
              onlyDependOnLibsWithTags: ['type:contract', 'type:testing'],
              bannedExternalImports: frameworkPackages,
            },
            {
              // Tracing and metrics helpers of the services: OpenTelemetry and prom-client, no framework.
              sourceTag: 'type:observability',
              onlyDependOnLibsWithTags: ['type:contract'],
              // The OpenTelemetry API (no SDK: the services start that) and prom-client's registry.
              bannedExternalImports: [
                ...frameworkPackages.filter((name) => name !== '@opentelemetry/*' && name !== 'prom-client'),
                '@opentelemetry/sdk-*',
                '@opentelemetry/exporter-*',
                '@opentelemetry/resources',
                '@opentelemetry/semantic-conventions',
                '@opentelemetry/core',
              ],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:testing'],
              bannedExternalImports: frameworkPackages,
            },
            {
              // The services' transport edge: the contract and the NATS client, no framework (apps wrap it in Nest).
              sourceTag: 'type:pipeline',
              // type:testing: its specs start real nats-servers.
              onlyDependOnLibsWithTags: ['type:contract', 'type:testing'],
              bannedExternalImports: ['@nestjs/*', '@opentelemetry/*', 'rxjs', 'express', 'pg', 'better-sqlite3', 'prom-client'],
            },
            {
              // The backends' NATS client: the contract, the wire format of the pipeline and the NATS client.
              sourceTag: 'type:client',
              // type:testing: its specs start real nats-servers.
              onlyDependOnLibsWithTags: ['type:contract', 'type:pipeline', 'type:testing'],
              bannedExternalImports: ['@nestjs/*', '@opentelemetry/*', 'rxjs', 'express', 'pg', 'better-sqlite3', 'prom-client'],
            },
            {
              // The diagnostics console runs in a browser: the contract and the adapters (an export normalizes the
              // frames as the CLI does), nothing of a server.
              sourceTag: 'type:console',
              onlyDependOnLibsWithTags: ['type:contract', 'type:adapters'],
              bannedExternalImports: frameworkPackages,
            },
            {
              // End-to-end suites drive the apps as processes; in code they use only libs.
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:contract', 'type:adapters', 'type:pipeline', 'type:client', 'type:testing'],
            },
            {
              // The Nest wiring the apps share (only apps may use it): Nest and the NATS client over the libs below.
              sourceTag: 'type:nest-kit',
              // type:testing: its specs start real nats-servers.
              onlyDependOnLibsWithTags: ['type:contract', 'type:pipeline', 'type:service-kit', 'type:observability', 'type:testing'],
              bannedExternalImports: ['express', 'pg', 'better-sqlite3', 'prom-client'],
            },
            {
              // Apps use libs, never each other (no lib carries type:app).
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:contract',
                'type:adapters',
                'type:pipeline',
                'type:client',
                'type:service-kit',
                'type:observability',
                'type:nest-kit',
                'type:testing',
              ],
            },
          ],
        },
      ],
    },
  },
  {
    // NestFactory.create takes its options as a class type; object literals are how Nest is used.
    files: ['apps/*/src/main.ts'],
    rules: { '@typescript-eslint/no-unsafe-class-instance-assignment': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
];
