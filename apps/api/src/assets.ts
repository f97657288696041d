import path from 'node:path';

/**
 * Files the API serves as they are, found from this file: src/ (tsx, tests) and dist/ (the
 * bundle, scripts/build.mjs) sit at the same depth, so the path is right in both.
 */
/** The packages origin's bridge script (issue 31), plain browser JavaScript. */
export const BRIDGE_DIR = path.resolve(import.meta.dirname, '../bridge');
