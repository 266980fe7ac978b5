import { isValidTenant } from '@llm-stream/contract';
import { generateNatsCredentials } from '@llm-stream/pipeline';
import { UsageError } from '../usage-error.js';

/** `nats-credentials --tenants a,b`: prints fresh random credentials for every NATS user, as JSON (keep it in a Secret). */
export function natsCredentialsCommand(tenantList: string | undefined): number {
  if (tenantList === undefined) throw new UsageError('missing --tenants <tenant,...> (the tenants whose backends read from NATS)');
  const tenants = tenantList.split(',').filter((tenant) => tenant !== '');
  const invalid = tenants.find((tenant) => !isValidTenant(tenant));
  if (invalid !== undefined) throw new UsageError(`--tenants: ${JSON.stringify(invalid)} is not a valid tenant (letters, digits, _ or -, at most 64)`);
  process.stdout.write(`${JSON.stringify(generateNatsCredentials([...new Set(tenants)]), null, 2)}\n`);
  return 0;
}
