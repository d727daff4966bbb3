/**
 * A threadline/v1 document of one thread with one priced response (Claude Sonnet, 1,000 tokens in
 * and 500 out): what a test imports to have a session on /usage and /insights. Plain data, so the
 * end-to-end specs and the integration tests build it alike.
 */
export function pricedDocument({
  title,
  project = null,
  at = new Date().toISOString(),
  question = "a question",
  answer = "an answer",
}: {
  title: string;
  project?: string | null;
  at?: string;
  question?: string;
  answer?: string;
}) {
  const id = crypto.randomUUID();
  return {
    id,
    document: {
      format: "threadline/v1",
      threads: [
        {
          id,
          parentThreadId: null,
          title,
          toolName: "claude-code",
          source: "import:claude-code",
          project,
          initialContext: {},
          metadata: null,
          createdAt: at,
          lastUpdatedAt: at,
          expiresAt: null,
          turns: [
            { id: crypto.randomUUID(), index: 0, role: "user", content: question, timestamp: at, files: [], images: [] },
            {
              id: crypto.randomUUID(),
              index: 1,
              role: "assistant",
              content: answer,
              timestamp: at,
              files: [],
              images: [],
              modelProvider: "anthropic",
              modelName: "claude-sonnet-4-20250514",
              modelMetadata: { usage: { input_tokens: 1000, output_tokens: 500 } },
            },
          ],
        },
      ],
    },
  };
}
