/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'replay-provider',
  rootDir: __dirname,
  // The specs start dist/main.js as a child process: build it first.
  globalSetup: '<rootDir>/test/support/global-setup.cjs',
};
