/** GitHub Copilot CLI sessions (docs: FORMATS.md section 12). Placeholder until the importer lands. */
import { ImportFormatError, type NumberedLine, type ParsedSource } from "../types";

export function looksLikeCopilotEvents(_firstLine: unknown, _fileName: string): boolean {
  return false;
}

export function looksLikeCopilotLegacy(_doc: unknown): boolean {
  return false;
}

export function parseCopilotEvents(_lines: NumberedLine[], source: { name: string }): ParsedSource {
  throw new ImportFormatError(`${source.name}: Copilot CLI import is not built yet`);
}

export function parseCopilotLegacy(_doc: unknown, source: { name: string }): ParsedSource {
  throw new ImportFormatError(`${source.name}: Copilot CLI import is not built yet`);
}
