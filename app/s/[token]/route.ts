import { sharedPageFailure, sharedPageResponse } from "@/lib/http/shared-page";
import { openSharedPage } from "@/lib/sharing/share-links";

type Context = { params: Promise<{ token: string }> };

/** A shared thread (lib/sharing): one self-contained read-only page, for anyone holding the link. */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  try {
    return sharedPageResponse(await openSharedPage((await params).token));
  } catch (error) {
    console.error("[threadline] unexpected error on a shared page", error);
    return sharedPageFailure();
  }
}
