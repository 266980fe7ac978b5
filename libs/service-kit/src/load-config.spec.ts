import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUrl, Max, Min } from 'class-validator';
import { loadConfig } from './load-config.js';
import { ServiceConfig } from './service-config.js';

class ExampleConfig {
  @IsUrl({ protocols: ['nats'], require_tld: false })
  NATS_URL = 'nats://127.0.0.1:4222';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 8080;

  @IsIn(['debug', 'info', 'warn', 'error'])
  LOG_LEVEL = 'info';

  @IsString()
  PROVIDER_API_KEY = 'default-key';
}

describe('loadConfig', () => {
  it('keeps defaults for unset variables and converts the ones given', () => {
    const result = loadConfig(ExampleConfig, { PORT: '9090', UNRELATED: 'x' });
    expect(result.ok && result.value).toEqual(
      Object.assign(new ExampleConfig(), { PORT: 9090 }),
    );
  });

  it('treats an empty variable as unset', () => {
    const result = loadConfig(ExampleConfig, { PORT: '' });
    expect(result.ok && result.value.PORT).toBe(8080);
  });

  it('names the first invalid variable in one line', () => {
    const result = loadConfig(ExampleConfig, { PORT: '70000' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_config');
    expect(result.error.variable).toBe('PORT');
    expect(result.error.message).toMatch(/^invalid configuration: PORT .*\(got "70000"\)$/);
    expect(result.error.message).not.toContain('\n');
  });

  it('rejects values of the wrong shape', () => {
    const result = loadConfig(ExampleConfig, { NATS_URL: 'not a url', LOG_LEVEL: 'loud' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['NATS_URL', 'LOG_LEVEL']).toContain(result.error.variable);
  });

  it('never echoes the value of a secret variable', () => {
    class SecretConfig {
      @IsString()
      @Min(100)
      PROVIDER_API_KEY = 'x';
    }
    const result = loadConfig(SecretConfig, { PROVIDER_API_KEY: 'sk-canary-123' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).not.toContain('sk-canary-123');
      expect(result.error.message).toContain('value hidden');
    }
  });
});

describe('loadConfig with a ServiceConfig subclass', () => {
  class ExampleServiceConfig extends ServiceConfig {
    @Type(() => Number)
    @IsInt()
    @Min(0)
    @Max(65535)
    HTTP_PORT = 8089;
  }

  it("reads the shared settings, converted, beside the service's own", () => {
    const result = loadConfig(ExampleServiceConfig, { JETSTREAM_REPLICAS: '3', LOG_LEVEL: 'debug', HTTP_PORT: '9000' });
    expect(result.ok && [result.value.JETSTREAM_REPLICAS, result.value.LOG_LEVEL, result.value.HTTP_PORT, result.value.NATS_URL]).toEqual([
      3,
      'debug',
      9000,
      'nats://127.0.0.1:4222',
    ]);
  });

  it.each([
    ['NATS_URL', 'http://nats:4222'],
    ['JETSTREAM_REPLICAS', '7'],
    ['TRACE_EXPORTER', 'file'],
    ['LOG_LEVEL', 'chatty'],
  ])('validates the shared setting %s', (variable, value) => {
    const result = loadConfig(ExampleServiceConfig, { [variable]: value });
    expect(!result.ok && result.error.variable).toBe(variable);
  });
});
