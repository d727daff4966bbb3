/**
 * Who a request comes from, for limits that count per client: the address of the connection's
 * other end (the peer, which the server itself records), or, when that peer is a proxy the
 * operator trusts (THREADLINE_TRUSTED_PROXIES), the address that proxy says it was talking to in
 * X-Forwarded-For. Anything a client writes in X-Forwarded-For is read only as far as trusted
 * proxies vouch for it.
 */

/** A range of addresses, as 16 bytes (IPv4 as IPv4-mapped IPv6) and a prefix length in bits. */
export type AddressRange = { readonly bytes: Uint8Array; readonly prefix: number };

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** "a.b.c.d" -> its four bytes; octets 0-255 without leading zeros (which some read as octal). */
function ipv4Bytes(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map((part) => (part.length > 1 && part.startsWith("0") ? NaN : Number(part)));
  return octets.every((octet) => octet <= 255) ? octets : null;
}

const mapped = (octets: number[]) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...octets]);

/** An IPv6 literal (with "::", an IPv4 tail, no zone) -> 16 bytes. */
function ipv6Bytes(text: string): Uint8Array | null {
  // An IPv4 tail ("::ffff:10.0.0.1") stands for the last two groups.
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  let groupsText = text;
  if (last.includes(".")) {
    const v4 = ipv4Bytes(last);
    if (!v4) return null;
    groupsText = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = groupsText.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...tail].every((group) => HEX_GROUP.test(group))) return null;
  // "::" stands for one or more zero groups; without it there are exactly eight.
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const words = [...head, ...new Array<string>(missing).fill("0"), ...tail].map((group) => parseInt(group, 16));
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/** A bare address, IPv4 or IPv6 (a zone such as "%eth0" is dropped), as 16 bytes; null when malformed. */
function addressBytes(text: string): Uint8Array | null {
  const v4 = ipv4Bytes(text);
  if (v4) return mapped(v4);
  if (!text.includes(":")) return null;
  const zone = text.indexOf("%");
  if (zone !== -1 && !/^%[\w.-]+$/.test(text.slice(zone))) return null;
  return ipv6Bytes(zone === -1 ? text : text.slice(0, zone));
}

/**
 * An X-Forwarded-For entry: a bare address, or one with a port as some proxies write them
 * ("203.0.113.7:51234", "[2001:db8::7]:443"); null when malformed.
 */
function forwardedBytes(entry: string): Uint8Array | null {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return bracketed[1]!.includes(":") ? addressBytes(bracketed[1]!) : null;
  const withPort = /^([\d.]+):\d{1,5}$/.exec(entry);
  return addressBytes(withPort ? withPort[1]! : entry);
}

const isMapped = (bytes: Uint8Array) => bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;

/**
 * 16 bytes -> "10.0.0.1" for an IPv4 (or IPv4-mapped) address, the RFC 5952 form for IPv6.
 * @internal exported for its tests
 */
export function formatAddress(bytes: Uint8Array): string {
  if (isMapped(bytes)) return Array.from(bytes.slice(12)).join(".");
  const words = Array.from({ length: 8 }, (_, i) => (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!);
  // The longest run of two or more zero groups (the first of equal ones) becomes "::".
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((word) => word.toString(16));
  if (best.start === -1) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

/**
 * "10.0.0.0/8", "fd00::/8", "192.0.2.7" (a single address) -> a range; null when malformed.
 * @internal exported for its tests
 */
export function parseAddressRange(entry: string): AddressRange | null {
  const [address, prefixText, extra] = entry.trim().split("/");
  if (extra !== undefined || !address || address.includes("%")) return null;
  const v4 = ipv4Bytes(address);
  const bytes = v4 ? mapped(v4) : address.includes(":") ? ipv6Bytes(address) : null;
  if (!bytes) return null;
  const bits = v4 ? 32 : 128;
  if (prefixText === undefined) return { bytes, prefix: 128 };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
  return { bytes, prefix: Number(prefixText) + (v4 ? 96 : 0) };
}

/**
 * THREADLINE_TRUSTED_PROXIES: addresses and CIDR ranges separated by commas or spaces, IPv4 and
 * IPv6. Empty (the default) trusts no proxy. The first malformed entry is named.
 */
export function parseTrustedProxies(raw: string | undefined): { ok: true; ranges: AddressRange[] } | { ok: false; entry: string } {
  const ranges: AddressRange[] = [];
  for (const entry of (raw ?? "").split(/[\s,]+/).filter(Boolean)) {
    const range = parseAddressRange(entry);
    if (!range) return { ok: false, entry };
    ranges.push(range);
  }
  return { ok: true, ranges };
}

function inRange(bytes: Uint8Array, range: AddressRange): boolean {
  let bits = range.prefix;
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/**
 * The client's address: the peer's own unless the peer is a trusted proxy; then X-Forwarded-For
 * is read from the right (each proxy appends the address it was talking to), skipping trusted
 * proxies, and the first address no trusted proxy owns is the client. A malformed entry is never
 * skipped over: the last trusted hop before it is the client then (so everyone behind it shares
 * one count rather than anyone naming themselves). Null when the peer is unknown or malformed.
 */
export function clientAddress(input: {
  peer: string | null;
  forwardedFor: string | null;
  trustedProxies: readonly AddressRange[];
}): string | null {
  const peer = input.peer ? addressBytes(input.peer.trim()) : null;
  if (!peer) return null;
  const trusted = (bytes: Uint8Array) => input.trustedProxies.some((range) => inRange(bytes, range));
  let client = peer;
  const hops = (input.forwardedFor ?? "").split(",").map((entry) => entry.trim());
  while (trusted(client)) {
    const entry = hops.pop();
    if (entry === undefined) break;
    if (entry === "") continue; // "a, , b" or a trailing comma: no address written there
    const next = forwardedBytes(entry);
    if (!next) break;
    client = next;
  }
  return formatAddress(client);
}
