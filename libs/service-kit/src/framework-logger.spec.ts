import { FrameworkLogger } from './framework-logger.js';
import { JsonLogger } from './json-logger.js';

describe('FrameworkLogger', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = new FrameworkLogger(
    new JsonLogger('normalizer', { level: 'debug', clock: () => 0, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }),
  );
  beforeEach(() => lines.splice(0));

  it('maps levels and keeps the context', () => {
    logger.log('Nest application successfully started', 'NestApplication');
    logger.warn('slow', 'Worker');
    logger.verbose('details', 'Worker');
    expect(lines.map((line) => [line['level'], line['msg'], line['context']])).toEqual([
      ['info', 'Nest application successfully started', 'NestApplication'],
      ['warn', 'slow', 'Worker'],
      ['debug', 'details', 'Worker'],
    ]);
  });

  it('keeps the context of an error but never dumps its stack into the line', () => {
    logger.error('boom', 'Error: boom\n    at x (y.js:1:1)', 'ExceptionHandler');
    logger.error(new Error('bad'), 'Error: bad\n    at z');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', msg: 'boom', context: 'ExceptionHandler' }),
      expect.not.objectContaining({ context: expect.anything() as unknown }),
    ]);
    expect(lines[1]?.['msg']).toBe('bad');
  });
});
