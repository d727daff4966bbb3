import { formatCount } from "@/lib/format";

/**
 * A token figure: the real count when the turns were counted with the default tokenizer (o200k),
 * else PAL's characters / 4 estimate, marked with "~".
 */
export function TokenCount({ tokens, estimate }: { tokens: number | null | undefined; estimate: number }) {
  if (tokens != null) {
    return (
      <span title={`${tokens.toLocaleString("en-US")} tokens, counted with OpenAI o200k_base`} data-testid="token-count">
        {formatCount(tokens)} tokens
      </span>
    );
  }
  return (
    <span title="Estimated (characters / 4): not counted yet" data-testid="token-count">
      ~{formatCount(estimate)} tokens
    </span>
  );
}
