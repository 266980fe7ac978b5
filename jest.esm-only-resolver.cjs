// Jest's CommonJS runtime resolves packages with the `require` export condition. The ESM-only packages the
// specs use declare only `import`, so they are resolved with it here; the preset's transform then converts their
// files to CommonJS (jest can require() ESM itself only with --experimental-vm-modules).
const { esmOnlyPackages } = require('./jest.esm-only-packages.cjs');

const isEsmOnly = (request) => esmOnlyPackages.some((name) => request === name || request.startsWith(`${name}/`));

module.exports = (request, options) =>
  options.defaultResolver(request, isEsmOnly(request) ? { ...options, conditions: ['import', 'default'] } : options);
