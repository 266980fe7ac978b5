/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'deploy-checks',
  rootDir: __dirname,
  // The checks read the built apps (config classes, controllers, dist paths): build them first.
  globalSetup: '<rootDir>/test/support/global-setup.cjs',
  testTimeout: 60_000,
};
