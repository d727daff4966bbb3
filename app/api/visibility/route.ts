import { signedInPerson } from "@/lib/auth/person";
import { visibilityRules } from "@/lib/db/people/visibility";
import { handleRoute } from "@/lib/http/responses";

/** The person's visibility for new threads and per project: `{defaultVisibility, projects: [{project, visibility}]}`. */
export async function GET(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const person = await signedInPerson(request.headers);
    const rules = await visibilityRules(person.userId);
    const projects = [...rules.projects]
      .map(([project, visibility]) => ({ project, visibility }))
      .sort((a, b) => a.project.localeCompare(b.project));
    return Response.json({ defaultVisibility: rules.defaultVisibility, projects }, { headers: { "cache-control": "no-store" } });
  });
}
