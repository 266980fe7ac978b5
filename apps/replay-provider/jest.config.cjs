/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'replay-provider',
  rootDir: __dirname,
};
