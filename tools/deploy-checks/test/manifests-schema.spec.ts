import { repoRoot } from '@llm-stream/testing';
import { OVERLAYS, kustomizeVersion, renderKustomization, renderOverlay } from '../src/kustomize.js';
import { findUnknownFields } from '../src/unknown-fields.js';
import { validateObjects } from '../src/validate-objects.js';

const root = repoRoot();

describe('the renderer', () => {
  it('is kustomize v5 (the manifests use v5 syntax: labels, patches with targets)', () => {
    expect(kustomizeVersion()).toMatch(/^v5\./);
  });
});

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const objects = renderOverlay(root, overlay);

  it('renders without warnings (no deprecated kustomize syntax)', () => {
    expect(renderKustomization(root, `deploy/overlays/${overlay}`)).toMatchObject({ ok: true, warnings: '' });
  });

  it('renders the services, NATS and their policies', () => {
    const kinds = new Set(objects.map((object) => `${object.kind}/${object.metadata.name}`));
    for (const expected of ['Deployment/gateway', 'Deployment/normalizer', 'Deployment/audit-log', 'StatefulSet/nats', 'NetworkPolicy/default-deny']) {
      expect(kinds).toContain(expected);
    }
  });

  it('validates every object against the Kubernetes schemas', () => {
    expect(validateObjects(objects)).toEqual([]);
  });

  it('has no field the Kubernetes types do not know', () => {
    expect(findUnknownFields(objects)).toEqual([]);
  });
});

describe('the validators', () => {
  // The checks above can fail: a broken object is caught by each layer.
  const deployment = renderOverlay(root, 'production').find((object) => object.kind === 'Deployment' && object.metadata.name === 'gateway');

  it('report a schema violation', () => {
    const broken = JSON.parse(JSON.stringify(deployment).replace('"containerPort":8080', '"containerPort":"8080"')) as typeof deployment;
    expect(validateObjects(broken ? [broken] : [])).toEqual([expect.objectContaining({ message: expect.stringContaining('containerPort') })]);
  });

  it('report a misspelt field and an object without a validator', () => {
    const misspelt = JSON.parse(JSON.stringify(deployment).replace('"livenessProbe"', '"livenesProbe"')) as typeof deployment;
    expect(findUnknownFields(misspelt ? [misspelt] : [])).toEqual([expect.objectContaining({ message: expect.stringContaining('livenesProbe') })]);
    expect(validateObjects([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } }])).toHaveLength(1);
  });

  it('report a kustomization that does not render', () => {
    expect(renderKustomization(root, 'deploy/no-such-overlay').ok).toBe(false);
  });
});
