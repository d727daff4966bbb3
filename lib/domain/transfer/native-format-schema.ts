import { z } from "zod";
import { NATIVE_FORMAT, nativeDocumentSchema } from "./native-format";

/**
 * The JSON Schema of a threadline/v1 document, generated from the zod schema that validates
 * imports, so the published file cannot drift from what the API accepts (a test compares them).
 */
function nativeDocumentJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(nativeDocumentSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://threadline.dev/schemas/threadline-v1.schema.json",
    title: `Threadline native conversation document (${NATIVE_FORMAT})`,
    description:
      "One or more conversation threads with all their turns. Exported by GET /api/threads/:id/export and accepted by POST /api/import (a document or an array of documents). Turn indexes are 0-based and contiguous; ids are UUIDs.",
    ...Object.fromEntries(Object.entries(generated).filter(([key]) => key !== "$schema")),
  };
}

export function nativeDocumentJsonSchemaText(): string {
  return `${JSON.stringify(nativeDocumentJsonSchema(), null, 2)}\n`;
}
