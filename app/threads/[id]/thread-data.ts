import "server-only";
import { cache } from "react";
import { listCustomModels } from "@/lib/db/custom-models";
import { findThread } from "@/lib/db/threads";

// The reads a thread's layout and its pages both make, once per request (React's cache() lives as
// long as one server render): the layout's header and the page share one query.
export const findThreadOnce = cache(findThread);
export const listCustomModelsOnce = cache(listCustomModels);
