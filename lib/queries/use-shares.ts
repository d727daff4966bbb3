"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchShares, requestShare, requestShareRevoke, shareKeys } from "./shares";

/** The share links the viewer may see: one thread's, or (null) every thread's. `enabled`: only while shown. */
export function useShares(threadId: string | null, enabled = true) {
  return useQuery({ queryKey: shareKeys.list(threadId), queryFn: ({ signal }) => fetchShares(threadId, signal), enabled });
}

/** Making and revoking a link: each reads every list of links again once done (the dialog's and Settings'). */
export function useCreateShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: requestShare, onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }) });
}

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: requestShareRevoke, onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }) });
}
