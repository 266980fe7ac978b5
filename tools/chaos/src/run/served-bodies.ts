import { existsSync, readFileSync } from 'node:fs';
import type { ServedBody } from '../recorded-run.js';

interface Line {
  readonly request_id: string;
  readonly scenario: string | null;
  readonly status: number | null;
  readonly started_at: number;
  readonly ended_at: number;
  readonly outcome: string;
  readonly body_base64: string;
}

/** The replay provider's served-body log (REPLAY_SERVED_LOG), decoded. */
export function readServedBodies(path: string): ServedBody[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((text) => {
      const line = JSON.parse(text) as Line;
      return {
        scenario: line.scenario,
        requestId: line.request_id,
        status: line.status,
        startedAt: line.started_at,
        endedAt: line.ended_at,
        outcome: line.outcome,
        body: Buffer.from(line.body_base64, 'base64').toString('utf8'),
      };
    });
}
