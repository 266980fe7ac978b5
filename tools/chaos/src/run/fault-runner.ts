import type { FaultRecord, PlannedFault } from '../fault-kinds.js';
import type { ChaosSystem } from './system.js';

/** How the runner starts the load-side faults (the burst, the slow reader): the load owns the clients. */
export interface LoadFaults {
  /** Starts `count` extra short streams spread over `holdMs`; resolves when the last one was sent. */
  burst(count: number, holdMs: number): Promise<string>;
  /** Starts one client that stops reading for `holdMs`; resolves with the pause's times once it read again. */
  slowReader(holdMs: number): Promise<{ readonly startedAt: number; readonly endedAt: number; readonly key: string; readonly paused: boolean }>;
}

function instance<T>(list: readonly T[], target: number): T {
  const chosen = list[target % list.length];
  if (chosen === undefined) throw new Error('the system has no instance of this service');
  return chosen;
}

/**
 * Injects one planned fault from outside the services and returns what happened, with the repair time. A
 * repair that fails (a restart that never gets ready) is recorded in the fault's detail, not thrown: the run
 * goes on and the checker reports what that cost.
 */
export async function injectFault(system: ChaosSystem, fault: PlannedFault, load: LoadFaults, burstSize: number): Promise<FaultRecord> {
  const startedAt = Date.now();
  try {
    return await inject(system, fault, load, burstSize, startedAt);
  } catch (error: unknown) {
    return { kind: fault.kind, target: fault.kind, startedAt, endedAt: Date.now(), detail: `repair failed: ${error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)}` };
  }
}

async function inject(system: ChaosSystem, fault: PlannedFault, load: LoadFaults, burstSize: number, startedAt: number): Promise<FaultRecord> {
  const done = (target: string, detail = ''): FaultRecord => ({ kind: fault.kind, target, startedAt, endedAt: Date.now(), detail });
  switch (fault.kind) {
    case 'kill-gateway': {
      const gateway = instance(system.gateways, fault.target);
      await gateway.kill();
      // The same GATEWAY_ID it had (a replaced one's too): the checker ties streams to the fault by it.
      await gateway.start({ GATEWAY_ID: gateway.gatewayId });
      return done(gateway.gatewayId);
    }
    case 'replace-gateway': {
      const gateway = instance(system.gateways, fault.target);
      const old = gateway.gatewayId;
      await gateway.kill();
      gateway.gatewayId = `${old.replace(/-r\d+$/, '')}-r${startedAt}`;
      await gateway.start({ GATEWAY_ID: gateway.gatewayId });
      return done(old, `replaced by ${gateway.gatewayId}`);
    }
    case 'kill-normalizer': {
      const normalizer = instance(system.normalizers, fault.target);
      await normalizer.kill();
      await normalizer.start();
      return done(normalizer.name);
    }
    case 'kill-audit-log':
      await system.audit.kill();
      await system.audit.start();
      return done('audit-log');
    case 'nats-kill':
      await system.nats.kill('SIGKILL');
      await system.nats.restart();
      return done('nats');
    case 'nats-term':
      await system.nats.kill('SIGTERM');
      await system.nats.restart();
      return done('nats');
    case 'nats-pause':
      await system.nats.pause();
      await new Promise((resolve) => setTimeout(resolve, fault.holdMs));
      system.nats.resume();
      return done('nats', `paused ${fault.holdMs} ms`);
    case 'postgres-restart':
      if (system.postgres === null) return done('postgres', 'skipped: the audit log runs on SQLite');
      await system.postgres.kill();
      await system.postgres.restart();
      return done('postgres');
    case 'overload':
      return done('gateways', await load.burst(burstSize, fault.holdMs));
    case 'slow-reader': {
      const pause = await load.slowReader(fault.holdMs);
      return { kind: fault.kind, target: pause.key, startedAt: pause.startedAt, endedAt: pause.endedAt, detail: pause.paused ? `stopped reading ${fault.holdMs} ms` : 'void: the stream ended before its third event' };
    }
    default:
      return fault.kind satisfies never;
  }
}
