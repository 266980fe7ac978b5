// Packages (and scopes) that ship only ESM and that specs import: see jest.esm-only-resolver.cjs.
module.exports = { esmOnlyPackages: ['eventsource-parser', 'kubernetes-models', '@kubernetes-models', 'is-cidr', 'cidr-regex'] };
