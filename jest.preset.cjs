// Shared jest settings. Sources are ESM TypeScript (module nodenext); ts-jest transpiles them to CommonJS
// for jest, so relative `./x.js` specifiers are mapped back to their `.ts` files and workspace packages
// resolve to their sources (no build needed to run unit tests). Type checking is `tsc -b`'s job.
const path = require('node:path');

const commonJs = {
  isolatedModules: true,
  module: 'commonjs',
  moduleResolution: 'node10',
  target: 'es2022',
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  resolveJsonModule: true,
  sourceMap: true,
};

// ESM-only packages the specs import. Jest's runtime can require() ESM only with --experimental-vm-modules, a
// flag the services spawned by the specs would inherit; instead they are resolved with the `import` condition
// and ts-jest converts their files to CommonJS.
const { esmOnlyPackages } = require('./jest.esm-only-packages.cjs');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: commonJs }],
    [`/node_modules/(${esmOnlyPackages.join('|')})/.+\\.js$`]: ['ts-jest', { tsconfig: { ...commonJs, allowJs: true } }],
  },
  resolver: path.join(__dirname, 'jest.esm-only-resolver.cjs'),
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`],
  moduleNameMapper: {
    '^@llm-stream/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
    // The client's second entry point (package.json `exports` "./http").
    '^@llm-stream/client/http$': path.join(__dirname, 'libs/client/src/http/index.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30_000,
};
