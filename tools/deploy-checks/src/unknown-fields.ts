import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { KubeObject } from './kustomize.js';
import type { ValidationProblem } from './validate-objects.js';

/**
 * The schema validators accept unknown fields (a misspelt `livenesProbe` passes, and the API server would
 * drop it). kubernetes-models also ships the schemas as TypeScript interfaces, and TypeScript rejects
 * unknown properties in object literals: each object is written as a literal typed with its kind's
 * interface and type-checked.
 */
const INTERFACES: Readonly<Record<string, readonly [module: string, name: string]>> = {
  'v1/ConfigMap': ['kubernetes-models/v1/ConfigMap', 'IConfigMap'],
  'v1/Namespace': ['kubernetes-models/v1/Namespace', 'INamespace'],
  'v1/PersistentVolumeClaim': ['kubernetes-models/v1/PersistentVolumeClaim', 'IPersistentVolumeClaim'],
  'v1/Secret': ['kubernetes-models/v1/Secret', 'ISecret'],
  'v1/Service': ['kubernetes-models/v1/Service', 'IService'],
  'v1/ServiceAccount': ['kubernetes-models/v1/ServiceAccount', 'IServiceAccount'],
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'apps/v1/StatefulSet': ['kubernetes-models/apps/v1/StatefulSet', 'IStatefulSet'],
  'batch/v1/Job': ['kubernetes-models/batch/v1/Job', 'IJob'],
  'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', 'IHorizontalPodAutoscaler'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'IPodDisruptionBudget'],
  'networking.k8s.io/v1/NetworkPolicy': ['kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'INetworkPolicy'],
};

export function findUnknownFields(objects: readonly KubeObject[]): ValidationProblem[] {
  // Resolve from where kubernetes-models is installed, whichever directory the checks run from.
  const packageDir = dirname(createRequire(__filename).resolve('kubernetes-models/package.json'));
  const virtualFile = join(dirname(dirname(packageDir)), '__deploy_checks_objects__.ts');
  const lines: string[] = [];
  const names: string[] = [];
  objects.forEach((object, index) => {
    const target = INTERFACES[`${object.apiVersion}/${object.kind}`];
    if (target === undefined) return;
    names[index] = `${object.kind}/${object.metadata.name}`;
    lines.push(`export const object${String(index)}: import(${JSON.stringify(target[0])}).${target[1]} = ${JSON.stringify(object)};`);
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === virtualFile ? source : readFile(file));
  host.fileExists = (file) => file === virtualFile || ts.sys.fileExists(file);
  host.getSourceFile = (file, language, onError) =>
    file === virtualFile ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, onError);
  const program = ts.createProgram([virtualFile], options, host);
  const file = program.getSourceFile(virtualFile);
  return ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
    const position = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : null;
    const index = position === null ? -1 : Number(/^export const object(\d+)/.exec(lines[position.line] ?? '')?.[1] ?? -1);
    return { object: names[index] ?? 'unknown object', message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ') };
  });
}
