import { describe, expect, it } from "vitest";
import { isSharePath, isShareToken, shareUrl } from "./share-links";

const TOKEN = "aZ09_-".repeat(7) + "Q"; // 43 characters of base64url

describe("share tokens and paths", () => {
  it("take 43 base64url characters only", () => {
    expect(isShareToken(TOKEN)).toBe(true);
    for (const bad of [
      "",
      TOKEN.slice(1),
      `${TOKEN}A`,
      `${TOKEN.slice(1)}=`,
      `${TOKEN.slice(1)}+`,
      `${TOKEN.slice(1)}/`,
      `${TOKEN.slice(1)}é`,
    ])
      expect(isShareToken(bad), bad).toBe(false);
    expect(isSharePath(`/s/${TOKEN}`)).toBe(true);
    for (const bad of [`/s/${TOKEN}/`, `/s/${TOKEN}?x`, `/s/${TOKEN.slice(1)}`, `/x/s/${TOKEN}`, `/S/${TOKEN}`])
      expect(isSharePath(bad), bad).toBe(false);
  });
});

describe("shareUrl", () => {
  it("writes the link on THREADLINE_URL when set, else on the request's host and scheme", () => {
    expect(shareUrl(TOKEN, { publicUrl: "https://threads.example.com/", host: "127.0.0.1:3000", secure: false })).toBe(
      `https://threads.example.com/s/${TOKEN}`,
    );
    expect(shareUrl(TOKEN, { publicUrl: null, host: "127.0.0.1:3000", secure: false })).toBe(`http://127.0.0.1:3000/s/${TOKEN}`);
    expect(shareUrl(TOKEN, { publicUrl: null, host: "threads.example.com", secure: true })).toBe(`https://threads.example.com/s/${TOKEN}`);
  });
});
