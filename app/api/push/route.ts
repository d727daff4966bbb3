import { pushingPerson } from "@/lib/auth/person";
import { handleRoute, readJson, readQuery } from "@/lib/http/responses";
import { pushState, receivePush } from "@/lib/imports/push-receive";
import { pushBatchSchema, pushStateQuerySchema } from "@/lib/validation/push";

/** `?machine=NAME`: what the server holds of the person's files from that machine, where `threadline push` resumes. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const person = await pushingPerson(request.headers);
    const { machine } = readQuery(request, pushStateQuerySchema);
    return Response.json(await pushState(person, machine));
  });
}

/** A batch of a laptop's grown or changed files (lib/validation/push.ts): written, imported as the token's person's, acknowledged. */
export async function POST(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const person = await pushingPerson(request.headers);
    const batch = await readJson(request, pushBatchSchema);
    return Response.json(await receivePush(person, batch));
  });
}
