/**
 * Another app process writing a chat reply, for the cross-process test in
 * app/api/threads/[id]/messages/messages-api.integration.test.ts. Run as:
 * tsx --conditions=react-server lib/testing/chat-reply-worker.ts <threadId> <content>
 * with DATABASE_URL and the chat provider's variables in the environment. It sends the message
 * through the real route, prints "started" once the reply's first event is read, then one JSON
 * line: {status, events: [names], last: <data of the last event>}.
 */
import { POST } from "@/app/api/threads/[id]/messages/route";
import { readServerSentEvents } from "@/lib/domain/server-sent-events";
import { jsonRequest, params } from "./api";

const [threadId, content] = process.argv.slice(2);
if (!threadId || !content) {
  console.error("usage: chat-reply-worker <threadId> <content>");
  process.exit(2);
}

const response = await POST(jsonRequest("POST", `/api/threads/${threadId}/messages`, { content }), params({ id: threadId }));
const events: { event: string; data: unknown }[] = [];
if (response.body && response.headers.get("content-type")?.includes("text/event-stream")) {
  let announced = false;
  for await (const event of readServerSentEvents(response.body)) {
    events.push(event);
    if (!announced && event.event === "delta") {
      announced = true;
      process.stdout.write("started\n");
    }
  }
} else {
  events.push({ event: "body", data: await response.json() });
}
process.stdout.write(`${JSON.stringify({ status: response.status, events: events.map((e) => e.event), last: events.at(-1)?.data })}\n`);
process.exit(0);
