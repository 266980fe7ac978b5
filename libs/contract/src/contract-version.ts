/**
 * Version of the public event contract (semver). The JSON Schema file is published under this version;
 * a breaking change to any event shape bumps the major, an added optional field the minor (1.1.0: `route` on
 * `stream.start`; 1.2.0: cache creation counts in `Usage`;
 * 1.3.0: the provider value `gemini-interactions`).
 */
export const CONTRACT_VERSION = '1.3.0';
