// Writes docs/threadline-v1.schema.json from the import validator.
import { writeFileSync } from "node:fs";
import { nativeDocumentJsonSchemaText } from "@/lib/domain/transfer/native-format-schema";

writeFileSync("docs/threadline-v1.schema.json", nativeDocumentJsonSchemaText());
console.log("wrote docs/threadline-v1.schema.json");
