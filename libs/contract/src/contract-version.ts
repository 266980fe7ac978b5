/**
 * Version of the public event contract (semver). The JSON Schema file is published under this version;
 * a breaking change to any event shape bumps the major.
 */
export const CONTRACT_VERSION = '1.0.0';
