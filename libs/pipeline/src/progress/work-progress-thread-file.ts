/**
 * Where the built work-progress thread script is, for WorkProgressKeeper. Its own entry point
 * (`@llm-stream/pipeline/work-progress-thread`) because it needs `import.meta`, which the unit tests' CommonJS
 * transpilation of the lib's index cannot carry.
 */
export const WORK_PROGRESS_THREAD = new URL('./work-progress-thread.js', import.meta.url);
