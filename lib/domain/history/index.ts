export { calculateTokenAllocation, LARGE_CONTEXT_THRESHOLD, type TokenAllocation } from "./allocation";
export { conversationFileList, conversationImageList, type FileReferencingTurn } from "./file-list";
export {
  buildConversationHistory,
  defaultTurnBody,
  planConversationHistory,
  renderConversationHistory,
  turnHeader,
  turnShell,
  type BuildHistoryInput,
  type HistoryPlan,
  type HistoryTurnOutline,
  type PlanHistoryInput,
  type BuiltHistory,
  type HistorySections,
  type HistoryTurn,
  type IncludedFile,
  type PerTurnTokens,
  type SkippedFile,
  type TurnSelection,
} from "./build-history";
export {
  palCountTokens,
  palEstimateFileTokens,
  palFileBlock,
  palReportTokens,
  PAL_MAX_FILE_BYTES,
  type FileReadResult,
  type FileSnapshot,
} from "./pal";
export { codePointLength } from "../tokenizer";
