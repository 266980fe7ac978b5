/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'cli',
  rootDir: __dirname,
  globalSetup: '<rootDir>/test/global-setup.cjs',
};
