import { QueryClient } from "@tanstack/react-query";
import { onSessionEnd } from "./session-events.ts";

/** One query cache for the signed-in area; failures already raise a notice in the API client. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 15_000,
    },
    mutations: { retry: false },
  },
});

// nothing cached for one user may be shown to the next
onSessionEnd(() => queryClient.clear());
