/**
 * Where a route's credential lives: never in the route file itself. `env` is read once at load; `file` is
 * read at load and again whenever the file changes (Vertex AI access tokens live an hour and are rewritten
 * by a sidecar; Kubernetes Secret volumes swap a `..data` symlink).
 */
export type SecretRef = { readonly kind: 'env'; readonly variable: string } | { readonly kind: 'file'; readonly path: string };

export function describeSecretRef(ref: SecretRef): string {
  return ref.kind === 'env' ? `environment variable ${ref.variable}` : `file ${ref.path}`;
}
