import { repoRoot } from '@llm-stream/testing';
import { checkAuditStore } from '../src/audit-store-rules.js';
import type { KubeObject } from '../src/kustomize.js';
import { loadOverlay } from '../src/overlay-model.js';

// The audit log of each overlay has a store it can start on: dev brings its own, production references the
// operator's Secret.
const root = repoRoot();

describe('the audit log store', () => {
  it('is SQLite on a claim the dev overlay renders', () => {
    expect(checkAuditStore(loadOverlay(root, 'dev').objects, { selfContained: true })).toEqual({
      store: { kind: 'sqlite', path: '/data/audit.sqlite', claim: 'audit-log-data' },
      problems: [],
    });
  });

  it('is PostgreSQL named by the operator’s Secret in production', () => {
    expect(checkAuditStore(loadOverlay(root, 'production').objects, { selfContained: false })).toEqual({
      store: { kind: 'postgres', secret: 'llm-stream-audit-db', key: 'AUDIT_DATABASE_URL' },
      problems: [],
    });
  });

  describe('catches a dev overlay', () => {
    const text = JSON.stringify(loadOverlay(root, 'dev').objects);
    const edited = (search: string, replacement: string): KubeObject[] => {
      const result = text.replace(search, replacement);
      expect(result).not.toBe(text);
      return JSON.parse(result) as KubeObject[];
    };

    it('whose claim is not rendered', () => {
      const objects = (JSON.parse(text) as KubeObject[]).filter((object) => object.kind !== 'PersistentVolumeClaim');
      expect(checkAuditStore(objects, { selfContained: true }).problems).toEqual(['the overlay renders no PersistentVolumeClaim audit-log-data for the audit log']);
    });

    it('whose SQLite file is on no volume', () => {
      expect(checkAuditStore(edited('"value":"/data/audit.sqlite"', '"value":"/var/lib/audit.sqlite"'), { selfContained: true }).problems).toEqual([
        'AUDIT_SQLITE_PATH=/var/lib/audit.sqlite is on no writable volume (the root filesystem is read-only)',
      ]);
    });

    it('whose SQLite volume dies with the pod', () => {
      expect(checkAuditStore(edited('"persistentVolumeClaim":{"claimName":"audit-log-data"}', '"emptyDir":{}'), { selfContained: true }).problems).toEqual([
        'AUDIT_SQLITE_PATH=/data/audit.sqlite is on volume data, which is no PersistentVolumeClaim: the audit log would be lost with the pod',
      ]);
    });

    it('pointing at a PostgreSQL no manifest creates (the old dev overlay)', () => {
      const objects = edited('{"name":"AUDIT_SQLITE_PATH","value":"/data/audit.sqlite"}', '{"name":"AUDIT_DATABASE_URL","valueFrom":{"secretKeyRef":{"name":"llm-stream-audit-db","key":"AUDIT_DATABASE_URL"}}}');
      expect(checkAuditStore(objects, { selfContained: true }).problems).toEqual(['AUDIT_DATABASE_URL: the overlay renders no Secret llm-stream-audit-db with key AUDIT_DATABASE_URL']);
      const withSecret = [...objects, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'llm-stream-audit-db' }, stringData: { AUDIT_DATABASE_URL: 'postgres://u:p@postgres:5432/db' } } as KubeObject];
      expect(checkAuditStore(withSecret, { selfContained: true }).problems).toEqual(['AUDIT_DATABASE_URL points at postgres, a host no Service of the overlay provides']);
    });
  });
});
