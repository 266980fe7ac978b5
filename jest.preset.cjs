// Shared jest settings. Sources are ESM TypeScript (module nodenext); ts-jest transpiles them to CommonJS
// for jest, so relative `./x.js` specifiers are mapped back to their `.ts` files and workspace packages
// resolve to their sources (no build needed to run unit tests). Type checking is `tsc -b`'s job.
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          isolatedModules: true,
          module: 'commonjs',
          moduleResolution: 'node10',
          target: 'es2022',
          esModuleInterop: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          resolveJsonModule: true,
          sourceMap: true,
        },
      },
    ],
  },
  moduleNameMapper: {
    '^@llm-stream/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30_000,
};
