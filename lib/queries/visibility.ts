import type { ThreadVisibility } from "@/lib/domain/access";
import { apiFetch } from "./api-client";

/** Client-safe: who reads a thread, a project, a person's new threads (PUT /api/threads/:id/visibility, /api/visibility/*). */
export function requestThreadVisibility(threadId: string, visibility: ThreadVisibility): Promise<{ visibility: ThreadVisibility }> {
  return apiFetch(`/api/threads/${encodeURIComponent(threadId)}/visibility`, { method: "PUT", json: { visibility } });
}

export function requestDefaultVisibility(visibility: ThreadVisibility): Promise<{ defaultVisibility: ThreadVisibility }> {
  return apiFetch("/api/visibility/default", { method: "PUT", json: { visibility } });
}

export function requestProjectVisibility(project: string, visibility: ThreadVisibility): Promise<{ threadsChanged: number }> {
  return apiFetch("/api/visibility/projects", { method: "PUT", json: { project, visibility } });
}
