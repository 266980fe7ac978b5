// The specs run the BUILT server as a child process: build it (incrementally, with its lib references)
// first so `npx jest -c apps/replay-provider/jest.config.cjs` never tests a stale dist/.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = function buildReplayProvider() {
  const root = path.resolve(__dirname, '../../../..');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [root] }), '-b', 'apps/replay-provider/tsconfig.app.json'], {
    cwd: root,
    stdio: 'inherit',
  });
};
