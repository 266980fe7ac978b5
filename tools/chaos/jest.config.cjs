/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'chaos',
  rootDir: __dirname,
  // The chaos run starts the built services as processes: build them (incrementally) first.
  globalSetup: '<rootDir>/test/support/global-setup.cjs',
  testTimeout: 60_000,
};
