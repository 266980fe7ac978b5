import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, natsServerBinary, startProcess, waitForPort, type ManagedProcess } from '@llm-stream/testing';
import { containerEnvironment } from '../../src/deployment-rules.js';
import { parseDockerfile } from '../../src/dockerfile.js';
import { stageImageLayout } from '../../src/image-layout.js';
import type { KubeObject } from '../../src/kustomize.js';
import { PodFiles } from '../../src/pod-files.js';
import { cliArguments, option } from '../../src/pod-paths.js';
import { find, ofKind, resolveEnv, type Container, type JobObject, type PodTemplate, type Workload } from '../../src/workloads.js';

/** How one step ended: a container run to completion. */
export interface StepResult {
  readonly step: string;
  readonly code: number | null;
}

/**
 * Runs a rendered overlay's pods on this machine as far as NATS authorization goes, with the manifests' own
 * commands from staged image layouts (no Docker): the NATS pod (its init container, then nats-server on the
 * rendered nats.conf), the services' waiting init containers, the provisioning Job. What differs from a pod is
 * only where things are: one server on loopback (no cluster block, a free port), files in a scratch directory.
 */
export class PodRunner {
  readonly steps: StepResult[] = [];
  private readonly scratch = mkdtempSync(join(tmpdir(), 'llm-stream-pods-'));
  private readonly stages: string[] = [];
  private readonly processes: ManagedProcess[] = [];
  private cliStage: string | undefined;

  constructor(
    private readonly root: string,
    private readonly objects: readonly KubeObject[],
    /** Secret name → key → value for the pods' Secret references and volumes. */
    private readonly secrets: Readonly<Record<string, Readonly<Record<string, string>>>>,
    private readonly node: string = process.env['DEPLOY_CHECKS_NODE'] ?? process.execPath,
  ) {}

  /** A staged copy of an app's runtime image layout. */
  stagedLayout(app: string): string {
    const parsed = parseDockerfile(readFileSync(join(this.root, 'apps', app, 'Dockerfile'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const stage = stageImageLayout(this.root, parsed.value);
    this.stages.push(stage);
    return stage;
  }

  /** A pod's volumes laid out here. */
  files(name: string, template: PodTemplate, claims: readonly string[] = []): PodFiles {
    return new PodFiles(join(this.scratch, name), template, this.objects, this.secrets, claims);
  }

  /** A container of the CLI image, started as its pod starts it: its command, environment and files. */
  startCli(name: string, container: Container, files: PodFiles, overrides: Readonly<Record<string, string>>): ManagedProcess {
    if (cliArguments(container) === null) throw new Error(`${name} does not run the CLI`);
    this.cliStage ??= this.stagedLayout('cli');
    const { env, problems } = containerEnvironment(resolveEnv(this.objects, container), { secrets: this.secrets, podName: `${name}-0` });
    if (problems.length > 0) throw new Error(problems.join('; '));
    const command = files.localArguments(container, [...(container.command ?? []), ...(container.args ?? [])]).slice(1);
    const cleared = { NATS_URL: undefined, NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_TLS_CA_FILE: undefined, NATS_TLS_CERT_FILE: undefined, NATS_TLS_KEY_FILE: undefined };
    const started = startProcess(this.node, command, { name, cwd: this.cliStage, env: { ...cleared, NODE_ENV: 'production', ...files.localEnvironment(container, env), ...overrides } });
    this.processes.push(started);
    return started;
  }

  /** Waits for a container to end; records the step; throws when it failed. */
  async finished(step: string, process: ManagedProcess, timeoutMs = 60_000): Promise<void> {
    const exit = await process.waitForExit(timeoutMs);
    this.steps.push({ step, code: exit.code });
    if (exit.code !== 0) throw new Error(`${step} failed\n${process.describe()}`);
  }

  /** The NATS pod: its init containers, then nats-server on the rendered nats.conf. Resolves with its URL. */
  async startNats(): Promise<string> {
    const nats = find<Workload>(this.objects, 'StatefulSet', 'nats');
    if (nats === undefined) throw new Error('no NATS StatefulSet');
    const template = nats.spec.template;
    const claims = ((nats.spec as { volumeClaimTemplates?: { metadata: { name: string } }[] }).volumeClaimTemplates ?? []).map((claim) => claim.metadata.name);
    const files = this.files('nats-0', template, claims);
    const server = template.spec.containers.find((container) => container.name === 'nats');
    const configPath = option(server?.args ?? [], '--config');
    if (server === undefined || configPath === undefined) throw new Error('no nats container with --config');
    for (const init of template.spec.initContainers ?? []) {
      await this.finished(`nats-0 init container ${init.name}`, this.startCli(`nats-0-${init.name}`, init, files, {}));
      // The rendered authorization names files by their pod paths (a TLS certificate): the server reads them here.
      const output = option(cliArguments(init) ?? [], '--output');
      if (output !== undefined) writeFileSync(files.localPath(init, output), files.localText(server, readFileSync(files.localPath(init, output), 'utf8')));
    }
    const configFile = files.localPath(server, configPath);
    // One server on this machine: no cluster of three, its pid file and store here. The include stays as it is.
    const single = readFileSync(configFile, 'utf8')
      .replace(/^\s*cluster\s*\{[\s\S]*?^\s*\}\s*$/m, '')
      .replace(/^(\s*pid_file:).*$/m, `$1 ${files.localPath(server, '/var/run/nats/nats.pid')}`)
      .replace(/^(\s*store_dir:).*$/m, `$1 ${files.localPath(server, '/data')}`);
    writeFileSync(configFile, single);
    const port = await getFreePort();
    const started = startProcess(natsServerBinary(), ['-c', configFile, '-a', '127.0.0.1', '-p', String(port), '-m', String(await getFreePort())], { name: 'nats-0', env: { POD_NAME: 'nats-0' } });
    this.processes.push(started);
    await waitForPort('127.0.0.1', port, 15_000);
    return `nats://127.0.0.1:${String(port)}`;
  }

  /** The services' init containers, waiting; the provisioning Job; then the waits must end. */
  async provision(natsUrl: string, services: readonly string[]): Promise<void> {
    const waits: [string, ManagedProcess][] = [];
    for (const app of services) {
      const deployment = find<Workload>(this.objects, 'Deployment', app);
      if (deployment === undefined) throw new Error(`no Deployment ${app}`);
      const files = this.files(app, deployment.spec.template);
      for (const init of deployment.spec.template.spec.initContainers ?? []) {
        const waiting = this.startCli(`${app}-${init.name}`, init, files, { NATS_URL: natsUrl });
        await waiting.waitForLine(/waiting: the JetStream streams .* do not exist yet/, 30_000);
        waits.push([`${app} init container ${init.name}`, waiting]);
      }
    }
    const job = ofKind<JobObject>(this.objects, 'Job').find((candidate) => candidate.spec.template.spec.containers.some((container) => cliArguments(container)?.[0] === 'provision'));
    if (job === undefined) throw new Error('no provisioning Job');
    const files = this.files(job.metadata.name, job.spec.template);
    for (const container of job.spec.template.spec.containers) {
      await this.finished(`Job ${job.metadata.name}`, this.startCli(`job-${job.metadata.name}`, container, files, { NATS_URL: natsUrl, JETSTREAM_REPLICAS: '1' }));
    }
    for (const [step, waiting] of waits) await this.finished(step, waiting);
  }

  /** Stops what is still running (newest first) and removes the files. */
  async stop(): Promise<void> {
    for (const started of [...this.processes].reverse()) if (started.exit === undefined) await started.stop('SIGTERM', 10_000);
    for (const stage of this.stages) rmSync(stage, { recursive: true, force: true });
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
