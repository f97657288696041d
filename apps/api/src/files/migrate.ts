import type { FileStore } from './store';

export interface MigrateReport {
  copied: number;
  present: number;
  bytes: number;
}

/**
 * Copies every file of `from` (a disk store) missing from `to` (a bucket). A key already there
 * with the same size is left alone, so a second run, or a run after an interruption, copies only
 * what is missing: keys are content-addressed or unique ids, never rewritten with other bytes.
 */
export async function copyStore(
  from: FileStore,
  to: FileStore,
  onFile?: (key: string, copied: boolean) => void,
): Promise<MigrateReport> {
  const report: MigrateReport = { copied: 0, present: 0, bytes: 0 };
  for await (const key of from.list()) {
    const bytes = await from.read(key);
    if (!bytes) continue;
    if ((await to.size(key)) === bytes.length) {
      report.present++;
      onFile?.(key, false);
      continue;
    }
    await to.put(key, bytes, 'application/octet-stream');
    report.copied++;
    report.bytes += bytes.length;
    onFile?.(key, true);
  }
  return report;
}
