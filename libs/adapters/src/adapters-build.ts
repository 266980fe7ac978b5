/**
 * The build of the adapters and the session, as far as their output goes: two processes with the same build
 * derive the same events from the same raw trace. The gateway serves its own client from its own session only
 * while every normalizer runs its build (docs/pipeline.md). Raise it with any change that alters an event for
 * some input; adapters-build.spec.ts holds it together with a digest of the conformance kit's expected events,
 * so a change of those fails there until the build is raised.
 */
export const ADAPTERS_BUILD = 6;
