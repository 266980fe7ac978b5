import { repoRoot } from '@llm-stream/testing';
import { checkCluster } from '../src/cluster-rules.js';
import { OVERLAYS, type KubeObject, type Overlay } from '../src/kustomize.js';
import { NAMESPACES, loadOverlay } from '../src/overlay-model.js';

const root = repoRoot();
// Production replicates every stream on the three NATS pods; dev may use fewer copies.
const JETSTREAM_REPLICAS: Readonly<Record<Overlay, number | undefined>> = { dev: undefined, production: 3 };

function check(overlay: Overlay, objects?: readonly KubeObject[]): string[] {
  const model = loadOverlay(root, overlay);
  const apps = objects === undefined ? model.apps : loadOverlayFrom(objects, model);
  const jetstreamReplicas = JETSTREAM_REPLICAS[overlay];
  return checkCluster(objects ?? model.objects, apps, { namespace: NAMESPACES[overlay], ...(jetstreamReplicas === undefined ? {} : { jetstreamReplicas }) });
}

/** The same apps, re-pointed at edited objects. */
function loadOverlayFrom(objects: readonly KubeObject[], model: ReturnType<typeof loadOverlay>): ReturnType<typeof loadOverlay>['apps'] {
  return model.apps.map((entry) => {
    const workload = objects.find((object) => object.kind === entry.workload.kind && object.metadata.name === entry.workload.metadata.name) as typeof entry.workload;
    const container = workload.spec.template.spec.containers.find((candidate) => candidate.name === entry.container.name) ?? entry.container;
    return { ...entry, workload, container };
  });
}

describe.each(OVERLAYS)('overlay %s as a whole', (overlay) => {
  it('agrees on shared settings, scales, budgets, secures and runs a three-node JetStream cluster', () => {
    expect(check(overlay)).toEqual([]);
  });
});

describe('the cluster rules', () => {
  const objects = loadOverlay(root, 'production').objects;
  const text = JSON.stringify(objects);

  it.each<[string, string | RegExp, string, string]>([
    ['services that disagree on stream settings', '"HTTP_PORT":"8081"', '"HTTP_PORT":"8081","RAW_RETENTION_HOURS":"1"', 'RAW_RETENTION_HOURS differs'],
    ['fewer stream replicas than production needs', '"JETSTREAM_REPLICAS":"3"', '"JETSTREAM_REPLICAS":"1"', 'expected 3'],
    ['a NATS URL that names no Service', '"NATS_URL":"nats://nats:4222"', '"NATS_URL":"nats://nats-client:4222"', 'no Service nats-client'],
    ['a cluster of two NATS pods', '"replicas":3,"selector":{"matchLabels":{"app.kubernetes.io/name":"nats"}}', '"replicas":2,"selector":{"matchLabels":{"app.kubernetes.io/name":"nats"}}', 'odd number'],
    ['a container without limits', '"limits":{"cpu":"1","memory":"512Mi"}', '"limits":{"cpu":"1"}', 'memory request and limit'],
    ['a writable root filesystem', '"readOnlyRootFilesystem":true', '"readOnlyRootFilesystem":false', 'read-only'],
    ['an unpinned image', '"image":"registry.example.com/llm-stream/gateway:0.1.0"', '"image":"registry.example.com/llm-stream/gateway:latest"', 'pinned tag'],
    ['an object in another namespace', '"namespace":"llm-stream"', '"namespace":"default"', 'not llm-stream'],
  ])('catch %s', (_case, search, replacement, message) => {
    const edited = text.replace(search, replacement);
    expect(edited).not.toBe(text);
    expect(check('production', JSON.parse(edited) as KubeObject[])).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });

  it('catch NATS without a PodDisruptionBudget', () => {
    const edited = (JSON.parse(text) as KubeObject[]).filter((object) => !(object.kind === 'PodDisruptionBudget' && object.metadata.name === 'nats'));
    expect(check('production', edited)).toEqual(expect.arrayContaining([expect.stringContaining('StatefulSet/nats needs a PodDisruptionBudget')]));
  });

  it('catch a Deployment that both the autoscaler and the manifest size', () => {
    const edited = JSON.parse(text) as KubeObject[];
    const gateway = edited.find((object) => object.kind === 'Deployment' && object.metadata.name === 'gateway') as { spec: { replicas?: number } } | undefined;
    if (gateway) gateway.spec.replicas = 2;
    expect(check('production', edited)).toEqual(expect.arrayContaining([expect.stringContaining('no spec.replicas')]));
  });
});
