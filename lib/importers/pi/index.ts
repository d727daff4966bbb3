/** Pi sessions (docs: FORMATS.md section 11). Placeholder until the importer lands. */
import { ImportFormatError, type NumberedLine, type ParsedSource } from "../types";

export function looksLikePiSession(_firstLine: unknown, _fileName: string): boolean {
  return false;
}

export function parsePiSession(_lines: NumberedLine[], source: { name: string }): ParsedSource {
  throw new ImportFormatError(`${source.name}: Pi import is not built yet`);
}
