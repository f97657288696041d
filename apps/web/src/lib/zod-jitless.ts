/**
 * Zod builds a fast parser for each object schema with `new Function`, after a probe of whether
 * eval is allowed. The CSP (`script-src` without 'unsafe-eval') blocks the probe, and the browser
 * reports a violation on every screen that builds a schema (the logbook's, the forms', the
 * graders'). Its jitless mode skips the probe and that parser: the same results, from its
 * interpreter (decision 0053). A schema reads the setting when it is built, so main.tsx imports
 * this module before anything else. `zod/v4/core` holds the setting without the schema library.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
