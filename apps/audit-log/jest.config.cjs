/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'audit-log',
  rootDir: __dirname,
  // The service specs start the built apps (audit-log, gateway, normalizer, replay-provider) as processes.
  globalSetup: '<rootDir>/test/support/global-setup.cjs',
  testTimeout: 120_000,
};
