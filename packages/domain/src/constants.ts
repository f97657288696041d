/**
 * Business constants and limits of docs/product.md §9, shared by the API and the web app so both sides
 * agree on page sizes, timings and bounds.
 */

/** Classes per page on the home dashboard. */
export const DASHBOARD_PAGE_SIZE = 5;

/** Collection limits used when loading dashboard data (docs/product.md §9 LIMITGLOBAL, LIMITCOMPETENCY, LIMITCATEGORY). */
export const LIMITS = { GLOBAL: 50, COMPETENCY: 20, CATEGORY: 50 } as const;
/**
 * docs/product.md §9 "default generic-competency reporting level 1": a generic competency's tree is reported
 * down to this depth (0 = the root); deeper competencies count in their ancestors but get no row.
 */
export const GENERIC_COMPETENCY_REPORTING_LEVEL = 1;

// Timings, in milliseconds.
export const KEEP_ALIVE_MS = 10_000;
export const LESSON_TIMER_MS = 1_000;
export const NEXT_DEBOUNCE_MS = 200;
export const RADIAL_SCORE_DELAY_MS = 500;
export const DASHBOARD_REFRESH_MS = 20_000;
export const USER_SCORE_DEBOUNCE_MS = 200;
export const CONTACT_FLAG_RESET_MS = 100;
export const CONTACT_SUCCESS_CLOSE_MS = 1_500;
export const RESET_ALERT_MS = 7_000;
export const CLASS_START_REFRESH_OFFSET_MS = 200;
/** A class starting sooner than this is already shown among current classes (docs/product.md §4). */
export const CLASS_CURRENT_LEAD_MS = 24 * 60 * 60 * 1_000;
export const COUNTDOWN_ENDING_S = 5;
/** RGAA 13.1 (decision 0019): a time limit is announced at least 20 s before its end. */
export const COUNTDOWN_WARNING_S = 20;
export const COUNTDOWN_ENDED_DELAY_MS = 500;
export const FULL_SEEN_POLL_MS = 200;
export const INSTALL_PROMPT_DELAY_MS = 5_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Share of a tincan frame scrolled past which it counts as fully seen. */
export const FULL_SEEN_THRESHOLD = 0.9;

// Form bounds (docs/product.md §5, §9).
export const MAX_RATING = 5;
export const COMMENT_MAX = 1_000;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 254;
export const NAME_MIN = 3;
export const NAME_MAX = 60;
export const EMAIL_MIN = 3;
export const EMAIL_MAX = 254;
/** Login identifiers and passwords: only a sanity bound, the server decides validity. */
export const LOGIN_FIELD_MAX = 254;

/** Certificate scores are shown out of this many points. */
export const CERTIFICATE_SCORE_SCALE = 1_000;
export const FILE_NAME_MAX = 56;
export const SOUND_VOLUMES = [0.125, 0.45, 1] as const;

/** Viewport widths (px) at which the layout changes. */
export const BREAKPOINTS = { xs: 768, sm: 992, md: 1200, lg: 1920 } as const;
