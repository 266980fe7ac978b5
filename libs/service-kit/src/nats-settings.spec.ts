import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt } from 'class-validator';
import { loadConfig } from './load-config.js';
import { natsSettings } from './nats-settings.js';
import { ServiceConfig } from './service-config.js';

class ExampleConfig extends ServiceConfig {
  @Type(() => Number)
  @IsInt()
  HTTP_PORT = 8089;
}

describe('natsSettings', () => {
  it('splits NATS_URL into servers and converts the retention hours to ms', () => {
    const loaded = loadConfig(ExampleConfig, {
      NATS_URL: 'nats://a:4222,tls://b:4443',
      JETSTREAM_REPLICAS: '3',
      RAW_RETENTION_HOURS: '2',
      EVENTS_RETENTION_HOURS: '48',
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(natsSettings(loaded.value)).toEqual({
      servers: ['nats://a:4222', 'tls://b:4443'],
      streams: { replicas: 3, rawMaxAgeMs: 7_200_000, eventsMaxAgeMs: 172_800_000 },
    });
  });

  it('takes the NATS user, its password and the TLS files that are set; none of them when empty', () => {
    const loaded = loadConfig(ExampleConfig, { NATS_USER: 'gateway', NATS_PASSWORD: 'secret', NATS_TLS_CA_FILE: '/etc/nats/ca.pem' });
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(natsSettings(loaded.value)).toMatchObject({ user: 'gateway', password: 'secret', tls: { caFile: '/etc/nats/ca.pem' } });
    expect(natsSettings(loaded.value).tls).toEqual({ caFile: '/etc/nats/ca.pem' });
    const anonymous = natsSettings(new ExampleConfig());
    expect([anonymous.user, anonymous.password, anonymous.tls]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses a NATS_USER that is not a user name', () => {
    const loaded = loadConfig(ExampleConfig, { NATS_USER: 'gate way' });
    expect(loaded.ok).toBe(false);
  });

  it('one server when NATS_URL names one (the default)', () => {
    expect(natsSettings(new ExampleConfig()).servers).toEqual(['nats://127.0.0.1:4222']);
  });
});
