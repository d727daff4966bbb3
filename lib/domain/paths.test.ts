import { describe, expect, it } from "vitest";
import { fileKind, isUnder, isWithin, notRegularReason, type FileKindProbe } from "./paths";

const kind = (which: keyof FileKindProbe | null): FileKindProbe => {
  const answers = { isFile: false, isDirectory: false, isFIFO: false, isSocket: false, isCharacterDevice: false, isBlockDevice: false };
  if (which) answers[which] = true;
  return Object.fromEntries(Object.entries(answers).map(([key, value]) => [key, () => value])) as unknown as FileKindProbe;
};

describe("isWithin and isUnder", () => {
  it("take the folder itself and what is under it, never a sibling that shares its name's start", () => {
    expect(isWithin("/home/me/.claude/projects", "/home/me/.claude/projects")).toBe(true);
    expect(isWithin("/home/me/.claude/projects", "/home/me/.claude/projects/a/b.jsonl")).toBe(true);
    expect(isWithin("/home/me/.claude/projects", "/home/me/.claude/projects-old/b.jsonl")).toBe(false);
    expect(isWithin("/home/me/.claude/projects", "/home/me/.claude")).toBe(false);
    expect(isWithin("/home/me/.claude/projects", "/etc/shadow")).toBe(false);
    expect(isUnder("/srv/a", "/srv/a")).toBe(false);
    expect(isUnder("/srv/a", "/srv/a/x")).toBe(true);
  });

  it("treat the root folder as holding everything", () => {
    expect(isWithin("/", "/etc/shadow")).toBe(true);
    expect(isUnder("/", "/")).toBe(false);
  });
});

describe("fileKind and notRegularReason", () => {
  it("name each kind for a person", () => {
    expect(fileKind(kind("isFIFO"))).toBe("a named pipe");
    expect(fileKind(kind("isSocket"))).toBe("a socket");
    expect(fileKind(kind("isCharacterDevice"))).toBe("a device");
    expect(fileKind(kind("isBlockDevice"))).toBe("a device");
    expect(fileKind(kind("isDirectory"))).toBe("a directory");
    expect(notRegularReason(kind("isFIFO"))).toBe("a named pipe, not a regular file");
    expect(notRegularReason(kind(null))).toBe("not a regular file");
  });
});
