import { existsSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { parseAssignments, type Dockerfile, type Instruction, type Stage } from './dockerfile.js';
import type { DockerIgnore } from './dockerignore.js';
import type { ImportClosure } from './import-closure.js';
import { parseVersion, satisfies } from './semver-range.js';

/** Where the images keep the repository layout: /app/<path> holds what <path> holds after `npm run build`. */
export const IMAGE_ROOT = '/app';

export interface Problem {
  readonly rule: string;
  readonly line: number;
  readonly message: string;
}

export interface DockerfileContext {
  readonly root: string;
  /** The app directory name under apps/. */
  readonly app: string;
  readonly ignore: DockerIgnore;
  /** Repository-relative package.json of the root and of every workspace: `npm ci` needs them all. */
  readonly manifests: readonly string[];
  /** Names in the root package.json `dependencies` (what `npm ci --omit=dev` installs). */
  readonly productionDependencies: ReadonlySet<string>;
  /** What apps/<app>/dist/main.js loads. */
  readonly closure: ImportClosure;
  /** The port the app listens on by default; null for a command that serves nothing (the CLI). */
  readonly port: number | null;
  /** The app's GET routes (a HEALTHCHECK must call one of them). */
  readonly getRoutes: readonly string[];
  /** `engines.node` of the root and of every production package. */
  readonly engines: readonly { readonly name: string; readonly range: string }[];
  /** The Node.js release the tests run on (the root's runtime package), null when the root pins none. */
  readonly testedNode: string | null;
}

interface Provided {
  /** Image path relative to IMAGE_ROOT. */
  readonly path: string;
  /** The stage it was copied from (null: the build context). */
  readonly fromStage: Stage | null;
}

const SECRET_NAME = /KEY|SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|DATABASE_URL/i;
const NODE_IMAGES = new Set(['node', 'library/node', 'docker.io/library/node']);

function imageParts(image: string): { name: string; tag: string | null; digest: string | null } {
  const [withoutDigest = '', digest] = image.split('@');
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const hasTag = colon > slash;
  return { name: hasTag ? withoutDigest.slice(0, colon) : withoutDigest, tag: hasTag ? withoutDigest.slice(colon + 1) : null, digest: digest ?? null };
}

function stageByReference(file: Dockerfile, reference: string, before: number): Stage | undefined {
  return file.stages.find((stage) => stage.index < before && (stage.name === reference || String(stage.index) === reference));
}

function words(instruction: Instruction): string[] {
  return instruction.json ? [...instruction.json] : instruction.args.split(/\s+/).filter((word) => word !== '');
}

function isCovered(path: string, provided: readonly Provided[]): Provided | undefined {
  return provided.find((item) => item.path === '.' || item.path === path || path.startsWith(`${item.path}/`));
}

/** Lints one app's Dockerfile; an empty list means it passes. */
export function lintDockerfile(file: Dockerfile, context: DockerfileContext): Problem[] {
  const problems: Problem[] = [];
  const report = (rule: string, line: number, message: string): void => {
    problems.push({ rule, line, message });
  };
  const final = file.stages[file.stages.length - 1];
  if (final === undefined) return [{ rule: 'multi-stage', line: 1, message: 'no stage' }];
  if (file.stages.length < 2) report('multi-stage', 1, 'build and runtime must be separate stages (the runtime image carries no compiler)');

  checkBaseImages(file, context, report);
  for (const [name] of Object.entries(file.globalArgs)) {
    if (SECRET_NAME.test(name)) report('no-secrets', 1, `ARG ${name} looks like a secret: build arguments stay in the image history`);
  }

  const providedByStage = new Map<Stage, Provided[]>();
  for (const stage of file.stages) {
    const parent = stageByReference(file, stage.image, stage.index);
    const provided: Provided[] = parent ? [...(providedByStage.get(parent) ?? [])] : [];
    let workdir = parent ? workdirOf(parent) : '/';
    for (const instruction of stage.instructions) {
      switch (instruction.keyword) {
        case 'WORKDIR':
          workdir = posix.resolve(workdir, instruction.args);
          if (workdir !== IMAGE_ROOT) report('workdir', instruction.line, `WORKDIR must be ${IMAGE_ROOT} (the checks map ${IMAGE_ROOT}/<path> to the repository's <path>)`);
          break;
        case 'ENV':
        case 'ARG':
          for (const name of Object.keys(parseAssignments(instruction.args))) {
            if (SECRET_NAME.test(name)) report('no-secrets', instruction.line, `${instruction.keyword} ${name} looks like a secret: pass secrets at run time`);
          }
          break;
        case 'ADD':
          report('copy', instruction.line, 'use COPY (ADD fetches URLs and unpacks archives implicitly)');
          break;
        case 'COPY':
          provided.push(...checkCopy(file, stage, instruction, workdir, context, report));
          break;
        case 'RUN':
          if (/\bnpm ci\b/.test(instruction.args)) checkNpmCi(instruction, provided, context, report);
          break;
        default:
          break;
      }
    }
    providedByStage.set(stage, provided);
  }

  checkFinalStage(final, providedByStage.get(final) ?? [], context, report);
  return problems;
}

function workdirOf(stage: Stage): string {
  const workdirs = stage.instructions.filter((instruction) => instruction.keyword === 'WORKDIR');
  return workdirs.reduce((current, instruction) => posix.resolve(current, instruction.args), '/');
}

type Report = (rule: string, line: number, message: string) => void;

function checkBaseImages(file: Dockerfile, context: DockerfileContext, report: Report): void {
  const external = file.stages.filter((stage) => stageByReference(file, stage.image, stage.index) === undefined);
  const images = new Set(external.map((stage) => stage.image));
  if (images.size > 1) {
    report('same-node', 1, `every stage must use the same base image (a native addon built in one stage must match the runtime's Node ABI): ${[...images].join(', ')}`);
  }
  for (const stage of external) {
    const { name, tag, digest } = imageParts(stage.image);
    const line = stage.from.line;
    if (stage.image.includes('$')) report('pinned-base', line, `unresolved variable in FROM ${stage.image}`);
    if (digest === null && (tag === null || !/^\d+\.\d+\.\d+(-[a-z0-9.-]+)?$/.test(tag))) {
      report('pinned-base', line, `FROM ${stage.image}: pin a full version tag (22.x.y-…) or a digest, never latest or a floating major`);
    }
    if (!NODE_IMAGES.has(name)) {
      report('node-lts', line, `FROM ${stage.image}: the services need the official node image`);
      continue;
    }
    const version = /^(\d+\.\d+\.\d+)/.exec(tag ?? '')?.[1];
    const parsed = version === undefined ? null : parseVersion(version);
    if (version === undefined || parsed === null) continue;
    if (parsed[0] % 2 !== 0 || parsed[0] < 20) report('node-lts', line, `Node ${version} is not an LTS line (even majors from 20)`);
    const tested = context.testedNode === null ? null : parseVersion(context.testedNode);
    if (tested?.[0] !== parsed[0]) {
      report('tested-node', line, `Node ${version} is not the major the tests run on (${context.testedNode ?? 'no runtime pinned in package.json'}): what ships must be what is tested`);
    }
    for (const { name: packageName, range } of context.engines) {
      const result = satisfies(version, range);
      if (result === true) continue;
      const why = result === false ? `requires node ${range}` : result.message;
      report('node-engines', line, `Node ${version} does not satisfy ${packageName}: ${why}`);
    }
  }
}

function checkCopy(file: Dockerfile, stage: Stage, instruction: Instruction, workdir: string, context: DockerfileContext, report: Report): Provided[] {
  const parts = words(instruction);
  const destination = parts.pop();
  if (destination === undefined || parts.length === 0) {
    report('copy', instruction.line, 'COPY needs a source and a destination');
    return [];
  }
  const fromReference = instruction.flags['from'];
  const fromStage = fromReference === undefined ? null : (stageByReference(file, fromReference, stage.index) ?? null);
  if (fromReference !== undefined && fromStage === null) {
    report('copy', instruction.line, `COPY --from=${fromReference}: no earlier stage of that name (images are not allowed here)`);
    return [];
  }
  const intoDirectory = destination.endsWith('/') || parts.length > 1;
  const target = posix.resolve(workdir, destination);
  const provided: Provided[] = [];
  for (const source of parts) {
    if (/[*?[]/.test(source)) {
      report('copy', instruction.line, `COPY ${source}: wildcards hide which paths the image needs; name them`);
      continue;
    }
    let repoPath: string;
    if (fromStage === null) {
      repoPath = posix.normalize(source).replace(/\/+$/, '');
      if (context.ignore.isExcluded(repoPath)) report('copy-source', instruction.line, `COPY ${source}: excluded from the build context by .dockerignore`);
    } else {
      const absolute = posix.resolve(workdirOf(fromStage), source);
      if (absolute !== IMAGE_ROOT && !absolute.startsWith(`${IMAGE_ROOT}/`)) {
        report('copy-source', instruction.line, `COPY --from=${fromReference ?? ''} ${source}: outside ${IMAGE_ROOT}, the checks cannot map it`);
        continue;
      }
      repoPath = absolute === IMAGE_ROOT ? '.' : absolute.slice(IMAGE_ROOT.length + 1);
    }
    if (!existsSync(join(context.root, repoPath))) {
      report('copy-source', instruction.line, `COPY ${source}: ${repoPath} does not exist in the repository's build output`);
    }
    const destinationPath = intoDirectory ? posix.join(target, basename(repoPath)) : target;
    if (destinationPath !== IMAGE_ROOT && !destinationPath.startsWith(`${IMAGE_ROOT}/`)) {
      report('copy', instruction.line, `COPY to ${destinationPath}: the app's files belong under ${IMAGE_ROOT}`);
      continue;
    }
    const path = destinationPath === IMAGE_ROOT ? '.' : destinationPath.slice(IMAGE_ROOT.length + 1);
    if (path !== repoPath) {
      report('copy', instruction.line, `COPY ${source} lands at ${path}: keep the repository layout (node resolves workspace links by it)`);
    }
    provided.push({ path, fromStage });
  }
  return provided;
}

function checkNpmCi(instruction: Instruction, provided: readonly Provided[], context: DockerfileContext, report: Report): void {
  for (const manifest of ['package-lock.json', ...context.manifests]) {
    if (isCovered(manifest, provided) === undefined) {
      report('npm-ci-manifests', instruction.line, `npm ci runs before ${manifest} is copied (the lockfile lists every workspace)`);
    }
  }
}

function checkFinalStage(final: Stage, provided: readonly Provided[], context: DockerfileContext, report: Report): void {
  const last = (keyword: Instruction['keyword']): Instruction | undefined => final.instructions.filter((item) => item.keyword === keyword).pop();
  const line = final.from.line;

  const user = last('USER');
  if (user === undefined) report('non-root', line, 'the runtime stage must set USER (the base image runs as root)');
  else if (/^(root|0)(:.*)?$/.test(user.args.trim())) report('non-root', user.line, `USER ${user.args} is root`);

  const env = final.instructions.filter((item) => item.keyword === 'ENV').map((item) => parseAssignments(item.args));
  if (!env.some((assignments) => assignments['NODE_ENV'] === 'production')) report('node-env', line, 'the runtime stage must set NODE_ENV=production');

  const entry = `apps/${context.app}/dist/main.js`;
  const cmd = last('CMD');
  const command = cmd?.json ?? null;
  if (cmd === undefined || command === null) {
    report('cmd', cmd?.line ?? line, 'CMD must be in exec form (["node", "<script>"]) so that node is PID 1 and gets SIGTERM');
  } else {
    const [program, script, ...rest] = command;
    const scriptPath = script === undefined ? '' : posix.relative(IMAGE_ROOT, posix.resolve(workdirOf(final), script));
    if (program !== 'node' || rest.length > 0 || scriptPath !== entry) {
      report('cmd', cmd.line, `CMD must be ["node", "${entry}"], got ${JSON.stringify(command)}`);
    }
    if (!existsSync(join(context.root, scriptPath))) report('cmd', cmd.line, `CMD runs ${scriptPath}, which the build does not produce`);
  }
  if (last('ENTRYPOINT') !== undefined) report('cmd', last('ENTRYPOINT')?.line ?? line, 'no ENTRYPOINT: CMD alone starts node');

  checkRuntimeFiles(final, provided, context, report);

  const exposed = final.instructions.filter((item) => item.keyword === 'EXPOSE').flatMap((item) => words(item));
  const healthcheck = last('HEALTHCHECK');
  const checksHealth = healthcheck !== undefined && !/^NONE$/i.test(healthcheck.args.trim());
  if (context.port === null) {
    // A command runs to completion and listens on nothing: a port or a health check would only mislead.
    if (exposed.length > 0) report('expose', last('EXPOSE')?.line ?? line, `EXPOSE ${exposed.join(' ')}: apps/${context.app} serves nothing`);
    if (checksHealth) report('healthcheck', healthcheck.line, `HEALTHCHECK: apps/${context.app} serves nothing to check`);
    return;
  }
  if (!exposed.some((port) => port.replace(/\/tcp$/, '') === String(context.port))) {
    report('expose', line, `EXPOSE ${String(context.port)}: the app's default port`);
  }
  if (checksHealth) {
    const text = healthcheck.args;
    if (!context.getRoutes.some((route) => new RegExp(`${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-])`).test(text))) {
      report('healthcheck', healthcheck.line, `HEALTHCHECK calls none of the app's GET routes (${context.getRoutes.join(', ')})`);
    }
    if (!text.includes(String(context.port))) report('healthcheck', healthcheck.line, `HEALTHCHECK does not use the app's port ${String(context.port)}`);
  }
}

function checkRuntimeFiles(final: Stage, provided: readonly Provided[], context: DockerfileContext, report: Report): void {
  const line = final.from.line;
  const required = [
    'package.json',
    `apps/${context.app}/package.json`,
    ...context.closure.workspaceLibs.map((lib) => `libs/${lib}/package.json`),
    ...context.closure.files,
  ];
  for (const path of required) {
    if (isCovered(path, provided) === undefined) report('runtime-files', line, `the runtime image lacks ${path}, which the app loads`);
  }
  for (const missing of context.closure.missing) report('runtime-files', line, `the app imports ${missing}, which the build does not produce`);
  for (const name of context.closure.packages) {
    if (!context.productionDependencies.has(name)) {
      report('production-deps', line, `the app imports ${name}, which is not a production dependency (npm ci --omit=dev leaves it out)`);
    }
  }
  const nodeModules = provided.find((item) => item.path === 'node_modules');
  const installed = nodeModules?.fromStage?.instructions.some((item) => item.keyword === 'RUN' && /\bnpm ci\b/.test(item.args)) === true;
  if (nodeModules !== undefined) {
    const ci = nodeModules.fromStage?.instructions.find((item) => item.keyword === 'RUN' && /\bnpm ci\b/.test(item.args));
    if (ci === undefined || !/--omit=dev\b/.test(ci.args)) report('production-deps', line, 'node_modules must come from a stage that ran npm ci --omit=dev');
  } else if (context.closure.packages.length > 0) {
    report('runtime-files', line, `the app imports packages (${context.closure.packages.join(', ')}) but the runtime image has no node_modules`);
  }
  if (!installed) {
    const runs = final.instructions.filter((item) => item.keyword === 'RUN').map((item) => item.args);
    for (const lib of context.closure.workspaceLibs) {
      const link = new RegExp(`ln -s \\.\\./\\.\\./libs/${lib} node_modules/@llm-stream/${lib}\\b`);
      if (!runs.some((run) => link.test(run))) report('runtime-files', line, `nothing links node_modules/@llm-stream/${lib} to libs/${lib}`);
    }
  }
}
