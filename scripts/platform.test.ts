import { describe, expect, it } from "vitest";
import { currentPlatform, platformProblem } from "./platform.mjs";

const packed = { platform: "linux", arch: "x64", libc: "glibc", abi: "115", node: "20.19.0" };

describe("platformProblem", () => {
  it("lets a package run where it was packed, whatever the Node.js patch release", () => {
    expect(platformProblem(packed, { ...packed, node: "20.20.2" })).toBeNull();
  });

  it("names both platforms when the C library, the processor or Node.js's ABI differs", () => {
    expect(platformProblem(packed, { ...packed, libc: "musl" })).toMatch(
      /^This package of Threadline is for Linux x64 \(glibc\) with Node.js 20 \(module ABI 115\).*This machine is Linux x64 \(musl\)/,
    );
    expect(platformProblem(packed, { ...packed, arch: "arm64" })).toContain("This machine is Linux arm64 (glibc)");
    expect(platformProblem(packed, { ...packed, abi: "127", node: "22.12.0" })).toContain("with Node.js 22 (module ABI 127)");
    expect(platformProblem(packed, { ...packed, platform: "darwin", libc: "" })).toContain("This machine is macOS x64 with");
  });

  it("describes this machine in the terms a package records", () => {
    expect(currentPlatform()).toMatchObject({ platform: process.platform, arch: process.arch, abi: process.versions.modules });
  });
});
