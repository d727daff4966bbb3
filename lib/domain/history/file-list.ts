/**
 * Newest-first, de-duplicated file and image lists across a conversation, as PAL's
 * get_conversation_file_list / get_conversation_image_list (BeehiveInnovations/pal-mcp-server
 * utils/conversation_memory.py; checked against tanji-dg/pal-mcp-server utils/conversation_memory.py
 * @ 449ff7aed3b5b41c06805e85deb66a2ef22be6c1).
 *
 * Turns are walked from newest to oldest; within a turn paths keep their listed order; a path
 * already seen in a newer turn is skipped. The caller passes every turn of the chain oldest first
 * (the chain merge happens before), so a newer thread's reference wins over an older thread's.
 */

export type FileReferencingTurn = {
  files?: readonly string[] | null;
  images?: readonly string[] | null;
};

function newestFirstUnique(lists: ReadonlyArray<readonly string[] | null | undefined>): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (let i = lists.length - 1; i >= 0; i--) {
    const list = lists[i];
    if (!list) continue;
    for (const path of list) {
      if (seen.has(path)) continue;
      seen.add(path);
      result.push(path);
    }
  }
  return result;
}

/** Every file referenced in the conversation, newest reference first, each path once. */
export function conversationFileList(turns: readonly FileReferencingTurn[]): string[] {
  return newestFirstUnique(turns.map((turn) => turn.files));
}
