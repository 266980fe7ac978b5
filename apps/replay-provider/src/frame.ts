/**
 * One SSE record to send. `render` runs at send time, after the delay, so a generated frame can stamp the
 * moment it leaves (synthetic streams) and later frames can repeat what earlier ones said.
 */
export interface Frame {
  /** Extra wait before this frame, on top of the delivery's `frame_delay_ms`. */
  readonly delayMs: number;
  render(): Buffer;
}

/** Fixed bytes sent with no extra delay: the frames of a recorded transcript. */
export function fixedFrame(bytes: Buffer): Frame {
  return { delayMs: 0, render: () => bytes };
}
