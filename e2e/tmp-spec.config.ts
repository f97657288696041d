import base from './playwright.config';
// Local run only (not committed): the shared machine's build takes longer than the config's 180 s.
export default { ...base, webServer: { ...(base.webServer as object), timeout: 1_200_000 } };
