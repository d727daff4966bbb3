import { describe, expect, it } from "vitest";
import { detectSecrets, fingerprintOf, maskFor, maskSecrets } from "./detect";
import { hasMask, splitMasks } from "./masks";
import { secretSamples } from "../testing/secret-samples";

describe("splitMasks", () => {
  it("finds every kind's mask as maskSecrets writes it, with its fingerprint's end", () => {
    for (const sample of secretSamples(4)) {
      const masked = maskSecrets(`before ${sample.line(sample.value)} after`);
      const masks = splitMasks(masked).filter((p) => "mask" in p);
      expect(masks, sample.rule).toEqual([
        {
          mask: maskFor({ kind: sample.kind, fingerprint: fingerprintOf(sample.value) }),
          kind: sample.kind,
          label: expect.any(String),
          fingerprint: fingerprintOf(sample.value).slice(-4),
        },
      ]);
      expect(hasMask(masked)).toBe(true);
    }
  });

  it("keeps the text around and between masks, in order", () => {
    const [a, , b] = secretSamples(6);
    const text = `x ${a!.value} y ${b!.value}`;
    expect(detectSecrets(text)).toHaveLength(2);
    const pieces = splitMasks(maskSecrets(text));
    expect(pieces.map((p) => ("mask" in p ? "M" : p.text))).toEqual(["x ", "M", " y ", "M"]);
  });

  it("leaves text without a mask, or with look-alikes, whole", () => {
    for (const text of ["", "plain", "[Secret …12]", "[Not a kind …a41f]", "[cut secret …]", "[GitHub token …A41F]"]) {
      expect(splitMasks(text)).toEqual([{ text }]);
      expect(hasMask(text)).toBe(false);
    }
  });
});
