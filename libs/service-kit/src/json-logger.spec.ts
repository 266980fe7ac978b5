import { JsonLogger } from './json-logger.js';

function capture(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): { logger: JsonLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = new JsonLogger('gateway', { level, clock: () => 0, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('JsonLogger', () => {
  it('writes one JSON object per line with service, level and message', () => {
    const { logger, lines } = capture();
    logger.info('stream accepted', { provider: 'anthropic', attempts: 1 });
    expect(lines).toEqual([
      { ts: '1970-01-01T00:00:00.000Z', level: 'info', service: 'gateway', msg: 'stream accepted', provider: 'anthropic', attempts: 1 },
    ]);
  });

  it('carries bound fields on every line of a child logger', () => {
    const { logger, lines } = capture();
    const stream = logger.child({ stream_id: 'st_1', trace_id: 'abc' });
    stream.warn('upstream slow');
    stream.error('upstream failed', { status: 503 });
    expect(lines.map((line) => [line['stream_id'], line['trace_id']])).toEqual([
      ['st_1', 'abc'],
      ['st_1', 'abc'],
    ]);
  });

  it('filters below the configured level', () => {
    const { logger, lines } = capture('warn');
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    expect(lines.map((line) => line['msg'])).toEqual(['c']);
    expect(logger.child({}).isEnabled('info')).toBe(false);
  });

  it('redacts values under secret-looking keys and drops undefined fields', () => {
    const { logger, lines } = capture();
    logger.info('config', { authorization: 'Bearer sk-canary', provider_api_key: 'sk-canary', note: undefined });
    expect(JSON.stringify(lines)).not.toContain('sk-canary');
    expect(lines[0]).not.toHaveProperty('note');
  });
});
