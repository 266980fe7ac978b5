/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'nest-kit',
  rootDir: __dirname,
};
