/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  // The suites start the built services as processes: build them (incrementally) first.
  globalSetup: '<rootDir>/test/support/global-setup.cjs',
  testTimeout: 120_000,
};
