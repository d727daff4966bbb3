/** Aider chat histories (docs: FORMATS.md section 13). Placeholder until the importer lands. */
import { ImportFormatError, type NumberedLine, type ParsedSource } from "../types";

/** Whether a text file (not JSON) is an Aider chat history, by its name or first line. */
export function looksLikeAiderHistory(_text: string, _fileName: string): boolean {
  return false;
}

export function parseAiderHistory(_lines: NumberedLine[], source: { name: string }): ParsedSource {
  throw new ImportFormatError(`${source.name}: Aider import is not built yet`);
}
