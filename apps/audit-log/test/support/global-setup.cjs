// Builds the apps and libraries (tsc -b is incremental: a no-op when dist is current) before the specs start
// the built services as processes, so a spec never runs a stale dist/.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = function globalSetup() {
  const root = path.resolve(__dirname, '../../../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
};
