/** The suppliers feature's public entry: what other features (the supplier portal) may use. */
export { type ApiKeyCalls, ApiKeysPanel } from "./ApiKeysPanel.tsx";
export { type CallbackCalls, CallbacksPanel } from "./CallbacksPanel.tsx";
export { CallbackUrlsCard } from "./CallbackUrlsCard.tsx";
