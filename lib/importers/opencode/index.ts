/** OpenCode sessions (docs: FORMATS.md section 10). Placeholder until the importer lands. */
import { ImportFormatError, type ParsedSource } from "../types";

export function looksLikeOpenCodeExport(_doc: unknown): boolean {
  return false;
}

export function parseOpenCodeExport(_doc: unknown, source: { name: string }): ParsedSource {
  throw new ImportFormatError(`${source.name}: OpenCode import is not built yet`);
}
