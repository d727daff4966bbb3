import { signedInPerson } from "@/lib/auth/person";
import { setProjectVisibility } from "@/lib/db/people/visibility";
import { handleRoute, readJson } from "@/lib/http/responses";
import { setProjectVisibilitySchema } from "@/lib/validation/visibility";

/**
 * Shares all of a project with the team (or makes it private again): the person's threads in it
 * now and those they add later. `{project, visibility, threadsChanged}`.
 */
export async function PUT(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const person = await signedInPerson(request.headers);
    const { project, visibility } = await readJson(request, setProjectVisibilitySchema);
    const threadsChanged = await setProjectVisibility(person, project, visibility);
    return Response.json({ project, visibility, threadsChanged });
  });
}
