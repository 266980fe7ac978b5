// Builds every app (tsc -b is incremental: a no-op when dist is current) and the console before the suites start them.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../../../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  // The console the audit log serves at /console/ (a Vite bundle, a second or two).
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.mjs', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
};
