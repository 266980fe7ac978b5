import type { AuditRawEntry } from './audit-api-types.js';

const isFrame = (entry: AuditRawEntry): boolean => entry.kind === 'frame' || entry.kind === 'frame.partial';

/**
 * The frames of the stream's final attempt, in raw_seq order: what the provider sent the last time it was
 * asked (none when that attempt got no body, an error status for example, even if an earlier attempt did).
 */
export function finalAttemptFrames(entries: readonly AuditRawEntry[]): { attempt: number; frames: AuditRawEntry[] } {
  const attempt = Math.max(0, ...entries.map((entry) => entry.attempt ?? 0));
  const frames = entries.filter((entry) => isFrame(entry) && entry.attempt === attempt).sort((a, b) => a.raw_seq - b.raw_seq);
  return { attempt, frames };
}
