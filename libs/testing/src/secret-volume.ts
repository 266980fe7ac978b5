import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A Secret volume as the kubelet writes it (AtomicWriter): the data in a timestamped directory, `..data` a
 * symlink to it, the key file a symlink through `..data`. An update writes a new directory, points a new
 * `..data_tmp` symlink at it, renames that over `..data` (the one atomic step) and removes the old directory.
 */
export class SecretVolume {
  readonly dir = mkdtempSync(join(tmpdir(), 'secret-volume-'));
  /** The key file as a service is told it: a symlink through `..data`. */
  readonly path: string;
  private generation = 0;
  private current: string | undefined;

  constructor(
    private readonly file: string,
    initial: string,
  ) {
    this.path = join(this.dir, file);
    this.write(initial);
    symlinkSync(join('..data', file), this.path);
  }

  update(text: string): void {
    this.write(text);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private write(text: string): void {
    this.generation += 1;
    const data = `..2026_12_02_05_00_00.${String(this.generation)}`;
    mkdirSync(join(this.dir, data));
    writeFileSync(join(this.dir, data, this.file), text);
    symlinkSync(data, join(this.dir, '..data_tmp'));
    renameSync(join(this.dir, '..data_tmp'), join(this.dir, '..data'));
    if (this.current !== undefined) rmSync(join(this.dir, this.current), { recursive: true });
    this.current = data;
  }
}

