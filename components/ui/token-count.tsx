import { formatCount } from "@/lib/format";

/**
 * A token figure: the real count when the turns were counted with the default tokenizer (o200k),
 * else PAL's characters / 4 estimate, marked with "~". A count that had to cut a very long run of
 * one kind of character (`estimated`) is marked "~" too.
 */
export function TokenCount({
  tokens,
  estimate,
  estimated = false,
}: {
  tokens: number | null | undefined;
  estimate: number;
  estimated?: boolean;
}) {
  if (tokens != null) {
    return (
      <span
        title={`${tokens.toLocaleString("en-US")} tokens, counted with OpenAI o200k_base${estimated ? "; an estimate: a run of one kind of character too long to tokenize whole was counted in pieces" : ""}`}
        data-testid="token-count"
      >
        {estimated ? "~" : ""}
        {formatCount(tokens)} {tokens === 1 ? "token" : "tokens"}
      </span>
    );
  }
  return (
    <span title="Estimated (characters / 4): not counted yet" data-testid="token-count">
      ~{formatCount(estimate)} tokens
    </span>
  );
}
