// The specs run the built CLI as a process: build it (incrementally) first.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/cli/tsconfig.app.json'], { cwd: root, stdio: 'inherit' });
};
