import type { Turn } from "../types";

const ROLE_LABEL: Record<Turn["role"], string> = { user: "User", assistant: "Assistant", system: "System", tool: "Tool" };

/**
 * The attribution shown next to the role label, without repeating it: "gpt-5 using codereview via
 * openai", "using analyze" for a user turn, and nothing for a bare "Assistant" (which read
 * "Assistant Assistant").
 */
export function attributionBesideRole(turn: Pick<Turn, "toolName" | "modelProvider" | "modelName">): string {
  const parts = [turn.modelName, turn.toolName && `using ${turn.toolName}`, turn.modelProvider && `via ${turn.modelProvider}`];
  return parts.filter(Boolean).join(" ");
}

export function roleLabel(role: Turn["role"]): string {
  return ROLE_LABEL[role];
}
