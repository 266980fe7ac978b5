import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { KubeObject } from './kustomize.js';

interface Model {
  validate(): void;
}
type ModelClass = new (data: never) => Model;

/**
 * The kinds the manifests may contain, each with its kubernetes-models class (whose validate() checks the
 * object against the Kubernetes OpenAPI schema: types, required fields, enums, formats). A kind missing
 * here is reported, so that no rendered object goes unvalidated.
 */
const MODELS: Readonly<Record<string, ModelClass>> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

export interface ValidationProblem {
  readonly object: string;
  readonly message: string;
}

export function objectName(object: KubeObject): string {
  return `${object.kind}/${object.metadata.name}`;
}

/** Validates every object against its Kubernetes schema; returns the problems (none: all valid). */
export function validateObjects(objects: readonly KubeObject[]): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  for (const object of objects) {
    const model = MODELS[`${object.apiVersion}/${object.kind}`];
    if (model === undefined) {
      problems.push({ object: objectName(object), message: `no schema validator for ${object.apiVersion} ${object.kind}` });
      continue;
    }
    try {
      new model(object as never).validate();
    } catch (error) {
      problems.push({ object: objectName(object), message: error instanceof Error ? error.message : String(error) });
    }
  }
  return problems;
}
