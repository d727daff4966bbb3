import { threadHandoff } from "@/lib/context/handoff";
import { maskSecrets } from "@/lib/domain/secrets/detect";
import { maskedJson } from "@/lib/http/masking";
import { handleRoute, readQuery, threadIdFrom } from "@/lib/http/responses";
import { handoffQuerySchema } from "@/lib/validation/handoff";

type Context = { params: Promise<{ id: string }> };

/**
 * The thread (or its chain) as the orchestrator seed's conversation_history: what the agent that
 * takes the task next would be given. Secrets are masked in each turn before it is cut.
 */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleRoute(async () => {
    const id = threadIdFrom((await params).id);
    const query = readQuery(request, handoffQuerySchema);
    return maskedJson(await threadHandoff(id, query, maskSecrets));
  });
}
