// `npm run quickstart:reset`: removes from a NATS server that the quick start did not start what it created
// there (the pipeline's streams, or the durable consumers it added to streams that were already there), as
// recorded in <QUICKSTART_DIR>/created-on-nats.json. A server the quick start started keeps its store in
// QUICKSTART_DIR: delete that folder to forget it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { removeCreated } from './nats-check.mjs';
import { readSettings } from './quickstart-settings.mjs';

const settings = readSettings(process.env, join(import.meta.dirname, '../..'));
const file = join(settings.state, 'created-on-nats.json');
if (!existsSync(file)) {
  process.stdout.write(`[reset] nothing to remove: the quick start created nothing on a NATS server it did not start (${file} does not exist)\n`);
  process.exit(0);
}
const recorded = JSON.parse(readFileSync(file, 'utf8'));
let failed = false;
for (const [natsUrl, created] of Object.entries(recorded)) {
  try {
    const removed = await removeCreated(natsUrl, created);
    process.stdout.write(`[reset] ${natsUrl}: removed ${removed.length === 0 ? 'nothing (already gone)' : removed.join(', ')}\n`);
  } catch (error) {
    failed = true;
    process.stderr.write(`[reset] ${natsUrl}: ${error.message}\n`);
  }
}
if (failed) process.exit(1);
rmSync(file);
