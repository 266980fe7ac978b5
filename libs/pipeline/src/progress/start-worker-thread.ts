import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread and resolves once it posts its first message (it is connected and ready); rejects when
 * it fails or exits before that. `what` names it in the error.
 */
export async function startWorkerThread(file: URL | string, workerData: unknown, what: string): Promise<Worker> {
  const worker = new Worker(file, { workerData });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => {
      resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`the ${what} exited with code ${String(code)} before it was ready`));
    });
  });
  return worker;
}
