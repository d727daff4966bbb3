import { afterEach, describe, expect, it, vi } from "vitest";
import { readEnv } from ".";

afterEach(() => vi.unstubAllEnvs());

describe("readEnv", () => {
  it("gives the defaults when nothing is set", () => {
    for (const name of ["PORT", "THREADLINE_AUTH", "THREADLINE_SOURCES_POLL", "CONVERSATION_TIMEOUT_HOURS", "OPENAI_API_KEY"]) {
      vi.stubEnv(name, undefined);
    }
    const env = readEnv();
    expect(env.PORT).toBe("3000");
    expect(env.THREADLINE_AUTH).toBe(false);
    expect(env.THREADLINE_SOURCES_POLL).toBe(false);
    expect(env.CONVERSATION_TIMEOUT_HOURS).toEqual({ value: 3, source: "default" });
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it("reads switches in any case, and blank text as unset", () => {
    vi.stubEnv("THREADLINE_AUTH", " ON ");
    vi.stubEnv("THREADLINE_SOURCES_POLL", "yes");
    vi.stubEnv("THREADLINE_PEER_HEADER", "1");
    vi.stubEnv("OPENAI_API_KEY", "   ");
    expect(readEnv()).toMatchObject({ THREADLINE_AUTH: true, THREADLINE_SOURCES_POLL: true, THREADLINE_PEER_HEADER: true });
    expect(readEnv().OPENAI_API_KEY).toBeUndefined();
  });

  it("falls back to a number's default, with a warning that names the variable and says why", () => {
    vi.stubEnv("MAX_CONVERSATION_TURNS", "many");
    expect(readEnv().MAX_CONVERSATION_TURNS).toEqual({
      value: 50,
      source: "default",
      warning: "Invalid MAX_CONVERSATION_TURNS value ('many'), using default of 50 turns",
    });
  });

  it("refuses a switch's unknown value, naming the variable", () => {
    vi.stubEnv("THREADLINE_AUTH", "yes please");
    expect(() => readEnv()).toThrow('THREADLINE_AUTH: "yes please" is neither on nor off: it says whether people must sign in');
    vi.stubEnv("THREADLINE_AUTH", "on");
    vi.stubEnv("THREADLINE_SOURCES_POLL", "sometimes");
    expect(() => readEnv()).toThrow(/^THREADLINE_SOURCES_POLL: "sometimes" is neither on nor off/);
  });

  it("refuses a malformed trusted proxy, naming the variable", () => {
    vi.stubEnv("THREADLINE_TRUSTED_PROXIES", "10.0.0.5, proxy.local");
    expect(() => readEnv()).toThrow('THREADLINE_TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR range');
  });

  it("says which single sign-on variables are missing when only some are set", () => {
    vi.stubEnv("THREADLINE_OIDC_ISSUER", "https://accounts.example.com");
    vi.stubEnv("THREADLINE_OIDC_CLIENT_ID", undefined);
    vi.stubEnv("THREADLINE_OIDC_CLIENT_SECRET", undefined);
    expect(() => readEnv()).toThrow(
      "THREADLINE_OIDC_CLIENT_ID: required when THREADLINE_OIDC_ISSUER is set (single sign-on); THREADLINE_OIDC_CLIENT_SECRET: required when THREADLINE_OIDC_ISSUER is set (single sign-on)",
    );
  });
});
