import { describe, expect, it } from "vitest";
import { ApiError, readApiError } from "./api-client";
import { signInFailure } from "./sign-in";

describe("signInFailure", () => {
  it("says how long to wait from the 429's Retry-After", async () => {
    const error = await readApiError(new Response("{}", { status: 429, headers: { "retry-after": "120" } }));
    expect(error.retryAfter).toBe("120");
    expect(signInFailure(error)).toMatch(/2 minutes/);
  });

  it("names a wrong password, a server that did not answer, and any other failure by the server's sentence", () => {
    expect(signInFailure(new ApiError("Invalid email or password", 401, "INVALID_EMAIL_OR_PASSWORD"))).toBe("Wrong email or password.");
    expect(signInFailure(new ApiError("Could not reach the Threadline server.", 0, "unreachable"))).toBe(
      "The server did not answer; try again.",
    );
    expect(signInFailure(new ApiError("The server answered HTTP 500.", 500, "unknown"))).toBe(
      "Sign-in failed: The server answered HTTP 500.",
    );
    expect(signInFailure(new ApiError("The server answered HTTP 500.", 500, "unknown"), { sso: true })).toBe(
      "Single sign-on could not start; see the server log.",
    );
  });
});
