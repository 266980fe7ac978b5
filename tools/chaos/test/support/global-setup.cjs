// Builds every app and lib (tsc -b is incremental: a no-op when dist is current) before the checks read
// the build output.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../../../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
};
