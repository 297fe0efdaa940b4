/** Lets non-React code (the API client) move the app, without importing the router module. */
type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (to) => {
  globalThis.location.assign(to);
};

export function setNavigator(fn: Navigate) {
  navigateImpl = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean }) {
  navigateImpl(to, opts);
}
