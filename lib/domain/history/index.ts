export { calculateTokenAllocation, type TokenAllocation } from "./allocation";
export { conversationFileList } from "./file-list";
export {
  buildConversationHistory,
  planConversationHistory,
  renderConversationHistory,
  turnShell,
  type HistoryTurnOutline,
  type PlanHistoryInput,
  type BuiltHistory,
  type TurnSelection,
} from "./build-history";
export { palCountTokens, palFileBlock, palReportTokens, type FileReadResult, type FileSnapshot } from "./pal";
export { codePointLength } from "../tokens/tokenizer";
