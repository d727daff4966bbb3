import { signedInPerson } from "@/lib/auth/person";
import { setDefaultVisibility } from "@/lib/db/people/visibility";
import { handleRoute, readJson } from "@/lib/http/responses";
import { setVisibilitySchema } from "@/lib/validation/visibility";

/** The visibility of the threads the person creates, imports or pushes from now on (unless their project says otherwise): `{visibility}`. */
export async function PUT(request: Request): Promise<Response> {
  return handleRoute(async () => {
    const person = await signedInPerson(request.headers);
    const { visibility } = await readJson(request, setVisibilitySchema);
    await setDefaultVisibility(person.userId, visibility);
    return Response.json({ defaultVisibility: visibility });
  });
}
