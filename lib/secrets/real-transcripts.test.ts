import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectSecrets } from "@/lib/domain/secrets/detect";
import { parseRealTranscript, realTranscriptFiles, REAL_TRANSCRIPTS } from "@/lib/testing/real-transcripts";

/**
 * The false-positive check on real transcripts: none of the public samples in fixtures/real
 * holds a secret, so any finding is a false positive. Both the raw files and every imported turn (content, parts, snapshots) are scanned.
 */
describe("secrets in the real transcripts", () => {
  for (const dir of [REAL_TRANSCRIPTS]) {
    it(`finds none in ${dir}`, async () => {
      const findings: string[] = [];
      let files = 0;
      for (const file of realTranscriptFiles(dir)) {
        files++;
        for (const m of detectSecrets(readFileSync(file, "utf8"))) findings.push(`${file}: ${m.kind} ${m.rules.join(",")}`);
        const parsed = await Promise.resolve()
          .then(() => parseRealTranscript(file))
          .catch(() => null); // a format this build does not read
        for (const thread of parsed?.threads ?? []) {
          for (const turn of thread.turns) {
            const texts = [turn.content, JSON.stringify(turn.parts ?? null)];
            for (const text of texts)
              for (const m of detectSecrets(text)) findings.push(`${file} turn ${thread.turns.indexOf(turn)}: ${m.kind}`);
          }
        }
      }
      expect(files).toBeGreaterThan(5);
      expect(findings).toEqual([]);
    });
  }
});
