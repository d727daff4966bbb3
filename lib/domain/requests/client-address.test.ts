import { describe, expect, it } from "vitest";
import { clientAddress, formatAddress, parseAddressRange, parseTrustedProxies, type AddressRange } from "./client-address";

const ranges = (raw: string): AddressRange[] => {
  const parsed = parseTrustedProxies(raw);
  if (!parsed.ok) throw new Error(`bad entry ${parsed.entry}`);
  return parsed.ranges;
};
const client = (peer: string | null, forwardedFor: string | null, trusted = "") =>
  clientAddress({ peer, forwardedFor, trustedProxies: ranges(trusted) });

describe("clientAddress without trusted proxies (the default)", () => {
  it("is the peer's address whatever X-Forwarded-For says", () => {
    expect(client("203.0.113.7", null)).toBe("203.0.113.7");
    expect(client("203.0.113.7", "10.9.9.9")).toBe("203.0.113.7");
    expect(client("127.0.0.1", "10.0.0.1, 10.0.0.2")).toBe("127.0.0.1");
    expect(client("2001:DB8:0:0:0:0:0:7", "10.9.9.9")).toBe("2001:db8::7");
  });

  it("reads an IPv4-mapped IPv6 peer (a dual-stack socket's) as the IPv4 address", () => {
    expect(client("::ffff:203.0.113.7", null)).toBe("203.0.113.7");
    expect(client("::FFFF:cb00:7107", null)).toBe("203.0.113.7");
  });

  it("is null when the peer is unknown or malformed", () => {
    for (const peer of [null, "", "not an address", "300.1.1.1", "1.2.3", "01.2.3.4", "1::2::3", "1:2:3:4:5:6:7:8:9", "fe80::1%"])
      expect(client(peer, "10.0.0.1"), String(peer)).toBeNull();
  });

  it("drops a link-local peer's zone", () => {
    expect(client("fe80::1%eth0", null)).toBe("fe80::1");
  });
});

describe("clientAddress behind trusted proxies", () => {
  it("takes X-Forwarded-For's rightmost address when the peer is a trusted proxy", () => {
    expect(client("10.0.0.5", "198.51.100.2", "10.0.0.5")).toBe("198.51.100.2");
    // A client-written entry on the left is not believed: the proxy appended the real one.
    expect(client("10.0.0.5", "6.6.6.6, 198.51.100.2", "10.0.0.5")).toBe("198.51.100.2");
  });

  it("skips trusted proxies from the right, IPv4 and IPv6 ranges alike", () => {
    const trusted = "10.0.0.0/8, fd00::/8";
    expect(client("10.0.0.5", "6.6.6.6, 198.51.100.2, fd00::9, 10.1.2.3", trusted)).toBe("198.51.100.2");
    expect(client("fd00::1", "2001:db8::42", trusted)).toBe("2001:db8::42");
    expect(client("::ffff:10.0.0.5", "198.51.100.2", trusted)).toBe("198.51.100.2");
  });

  it("ignores X-Forwarded-For from a peer that is not trusted, even inside a trusted-looking chain", () => {
    expect(client("198.51.100.9", "10.0.0.5, 192.0.2.1", "10.0.0.0/8")).toBe("198.51.100.9");
  });

  it("never skips over a malformed entry: the last trusted hop is the client then", () => {
    expect(client("10.0.0.5", "198.51.100.2, garbage", "10.0.0.5")).toBe("10.0.0.5");
    expect(client("10.0.0.5", "198.51.100.2, 999.1.1.1, 10.0.0.6", "10.0.0.0/8")).toBe("10.0.0.6");
    expect(client("10.0.0.5", "198.51.100.2, 10.0.0.6, 999.1.1.1", "10.0.0.0/8")).toBe("10.0.0.5");
  });

  it("is the proxy itself when it forwards no address, or the leftmost hop when every hop is trusted", () => {
    expect(client("10.0.0.5", null, "10.0.0.5")).toBe("10.0.0.5");
    expect(client("10.0.0.5", "", "10.0.0.5")).toBe("10.0.0.5");
    expect(client("10.0.0.5", "10.0.0.7, 10.0.0.6", "10.0.0.0/8")).toBe("10.0.0.7");
  });

  it("reads entries with ports and brackets, and skips empty ones", () => {
    expect(client("127.0.0.1", "203.0.113.7:51234", "127.0.0.1")).toBe("203.0.113.7");
    expect(client("127.0.0.1", "[2001:db8::7]:443", "127.0.0.1")).toBe("2001:db8::7");
    expect(client("127.0.0.1", "[2001:db8::7]", "127.0.0.1")).toBe("2001:db8::7");
    expect(client("127.0.0.1", "203.0.113.7, ,", "127.0.0.1")).toBe("203.0.113.7");
    expect(client("127.0.0.1", "[203.0.113.7]:1", "127.0.0.1")).toBe("127.0.0.1"); // brackets are for IPv6
  });

  it("matches a trusted IPv4 entry whichever way the peer's IPv4 address is written", () => {
    expect(client("::ffff:127.0.0.1", "198.51.100.2", "127.0.0.1")).toBe("198.51.100.2");
    expect(client("127.0.0.1", "198.51.100.2", "::ffff:127.0.0.0/104")).toBe("198.51.100.2");
    expect(client("::1", "198.51.100.2", "127.0.0.1")).toBe("::1"); // IPv6 loopback is another address
  });
});

describe("parseTrustedProxies", () => {
  it("reads addresses and CIDR ranges separated by commas or spaces; empty trusts nobody", () => {
    expect(parseTrustedProxies(undefined)).toEqual({ ok: true, ranges: [] });
    expect(parseTrustedProxies("  ")).toEqual({ ok: true, ranges: [] });
    const parsed = parseTrustedProxies("127.0.0.1, ::1 10.0.0.0/8,fd00::/8");
    expect(parsed.ok && parsed.ranges.map((r) => r.prefix)).toEqual([128, 128, 104, 8]);
  });

  it("names the first malformed entry", () => {
    for (const bad of [
      "10.0.0.300",
      "10.0.0.0/33",
      "fd00::/129",
      "10.0.0.0/",
      "10.0.0.0/-1",
      "localhost",
      "10.0.0.0/8/8",
      "fe80::1%eth0",
      "[::1]",
      "10.0.0.1:80",
      "1.2.3.4/0x8",
    ]) {
      expect(parseTrustedProxies(`127.0.0.1, ${bad}, ::1`), bad).toEqual({ ok: false, entry: bad });
    }
  });

  it("applies the prefix to the bits it covers only", () => {
    const range = parseAddressRange("10.1.2.3/8")!;
    expect(clientAddress({ peer: "10.200.0.1", forwardedFor: "198.51.100.2", trustedProxies: [range] })).toBe("198.51.100.2");
    expect(clientAddress({ peer: "11.0.0.1", forwardedFor: "198.51.100.2", trustedProxies: [range] })).toBe("11.0.0.1");
    const odd = parseAddressRange("192.168.0.0/23")!;
    expect(clientAddress({ peer: "192.168.1.255", forwardedFor: "198.51.100.2", trustedProxies: [odd] })).toBe("198.51.100.2");
    expect(clientAddress({ peer: "192.168.2.0", forwardedFor: "198.51.100.2", trustedProxies: [odd] })).toBe("192.168.2.0");
    expect(clientAddress({ peer: "2001:db8::1", forwardedFor: "198.51.100.2", trustedProxies: [parseAddressRange("::/0")!] })).toBe(
      "198.51.100.2",
    );
  });
});

describe("formatAddress", () => {
  it("writes IPv6 in the RFC 5952 form", () => {
    const format = (text: string) => formatAddress(parseAddressRange(text)!.bytes);
    expect(format("2001:0DB8:0000:0000:0001:0000:0000:0001")).toBe("2001:db8::1:0:0:1");
    expect(format("2001:db8:0:1:1:1:1:1")).toBe("2001:db8:0:1:1:1:1:1");
    expect(format("::")).toBe("::");
    expect(format("::1")).toBe("::1");
    expect(format("fe80::")).toBe("fe80::");
    expect(format("1:0:0:2:0:0:0:3")).toBe("1:0:0:2::3");
    expect(format("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(format("::10.0.0.1")).toBe("::a00:1");
  });
});
