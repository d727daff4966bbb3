import "server-only";
import { maskDeep } from "@/lib/domain/secrets/detect";
import { cache } from "react";
import { listCustomModels } from "@/lib/db/settings/custom-models";
import { findThread } from "@/lib/db/threads/threads";

// The reads a thread's layout and its pages both make, once per request (React's cache() lives as
// long as one server render): the layout's header and the page share one query.
// Secrets in turn text (and in titles cut from it) are masked in everything a page is given.
export const findThreadOnce = cache(async (id: string) => maskDeep(await findThread(id)));
export const listCustomModelsOnce = cache(listCustomModels);
