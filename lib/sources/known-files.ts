import "server-only";
// What the syncs remember of each file across restarts (the SourceFile table): its size and
// modification time when it was last imported, or why its content could not be. A file whose size
// and time are unchanged is skipped unread.
import { forgetSourceFiles, saveSourceFiles, sourceFilesUnder, type SourceFileRow } from "@/lib/db/imports/source-files";

export type KnownFilesStore = {
  under(folder: string): Promise<SourceFileRow[]>;
  save(rows: SourceFileRow[]): Promise<void>;
  forget(paths: string[]): Promise<void>;
};

export const dbFiles: KnownFilesStore = { under: sourceFilesUnder, save: saveSourceFiles, forget: forgetSourceFiles };

/**
 * What a file looked like when it was last imported (or failed to parse): unchanged size and mtime
 * mean it is skipped unread. `warning`: imported, with lines left out (lib/importers/long-lines.ts).
 */
export type KnownFile = { size: number; mtimeMs: number; failure?: string; warning?: string };

/** The known files of a process: read from the store once per folder, written back in batches by each sync. */
export function knownFiles(store: KnownFilesStore, log: (line: string) => void) {
  const known = new Map<string, KnownFile>();
  /** Folders whose remembered files were read from the store in this process. */
  const loaded = new Set<string>();
  return {
    get: (path: string) => known.get(path),
    paths: () => known.keys(),
    /** A batch of changes for one sync. */
    batch() {
      const toSave: SourceFileRow[] = [];
      const toForget: string[] = [];
      return {
        async load(folder: string) {
          if (loaded.has(folder)) return;
          // A restarted server knows what the last sync saw: unchanged files are not read again.
          for (const row of await store.under(folder))
            known.set(row.path, {
              size: row.size,
              mtimeMs: Number(row.mtime),
              ...(row.failure !== null ? { failure: row.failure } : {}),
              ...(row.warning !== null ? { warning: row.warning } : {}),
            });
          loaded.add(folder);
        },
        remember(path: string, file: KnownFile | null) {
          if (file) {
            known.set(path, file);
            toSave.push({
              path,
              size: file.size,
              mtime: String(file.mtimeMs),
              failure: file.failure ?? null,
              warning: file.warning ?? null,
            });
          } else if (known.delete(path)) toForget.push(path);
        },
        /** Writes the batch once it holds `atLeast` changes. */
        async store(atLeast = 1) {
          if (toSave.length + toForget.length < atLeast) return;
          await store.save(toSave.splice(0));
          await store.forget(toForget.splice(0));
        },
        async storeOrLog(folder: string) {
          try {
            await this.store();
          } catch (error) {
            // Only a restart's first sync is slower for it: the files are read again then.
            log(`could not remember the files of ${folder}: ${error instanceof Error ? error.message : String(error)}`);
          }
        },
      };
    },
  };
}

export type KnownFiles = ReturnType<typeof knownFiles>;
export type FileMemory = ReturnType<KnownFiles["batch"]>;
