"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiTokenKeys, fetchApiTokens, requestApiToken, requestTokenRevoke } from "./api-tokens";

/** The tokens Settings lists (the server page's as the first data: app/settings/page.tsx prefetches them). */
export function useApiTokens() {
  return useQuery({ queryKey: apiTokenKeys.list(), queryFn: ({ signal }) => fetchApiTokens(signal) });
}

/** Creating and revoking a token: each reads the list again once done (settled before the mutation is). */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: { id: string; name: string }) => requestTokenRevoke(token.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
