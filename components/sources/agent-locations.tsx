import { sourceLabel } from "@/lib/domain/display/source";
import { AGENT_LOCATIONS } from "@/lib/domain/sources/agent-folders";

/** Where each agent keeps its sessions, one line per agent, and whether its folders are followed unasked. */
export function AgentLocations() {
  return (
    <ul aria-label="Where each agent keeps its sessions" className="mt-2 list-disc space-y-1 pl-6" data-testid="agent-locations">
      {AGENT_LOCATIONS.map(({ source, where, followed }) => (
        <li key={source}>
          <span className="font-medium text-zinc-800">{sourceLabel(source)}</span>: <span className="break-words">{where}</span>
          {!followed && " (not followed unless named in THREADLINE_SOURCES)"}
        </li>
      ))}
    </ul>
  );
}
