import { describe, expect, it } from 'vitest';
import * as constants from './constants';

describe('SPEC §9 constants', () => {
  it.each<[keyof typeof constants, unknown]>([
    ['DASHBOARD_PAGE_SIZE', 5],
    ['KEEP_ALIVE_MS', 10_000],
    ['LESSON_TIMER_MS', 1_000],
    ['NEXT_DEBOUNCE_MS', 200],
    ['RADIAL_SCORE_DELAY_MS', 500],
    ['DASHBOARD_REFRESH_MS', 20_000],
    ['USER_SCORE_DEBOUNCE_MS', 200],
    ['CONTACT_FLAG_RESET_MS', 100],
    ['CONTACT_SUCCESS_CLOSE_MS', 1_500],
    ['RESET_ALERT_MS', 7_000],
    ['CLASS_START_REFRESH_OFFSET_MS', 200],
    ['CLASS_CURRENT_LEAD_MS', 86_400_000],
    ['COUNTDOWN_ENDING_S', 5],
    ['COUNTDOWN_ENDED_DELAY_MS', 500],
    ['FULL_SEEN_THRESHOLD', 0.9],
    ['FULL_SEEN_POLL_MS', 200],
    ['INSTALL_PROMPT_DELAY_MS', 5_000],
    ['CHUNK_LOAD_TIMEOUT_MS', 120_000],
    ['MAX_RATING', 5],
    ['COMMENT_MAX', 1_000],
    ['PASSWORD_MIN', 6],
    ['PASSWORD_MAX', 254],
    ['NAME_MIN', 3],
    ['NAME_MAX', 60],
    ['EMAIL_MIN', 3],
    ['EMAIL_MAX', 254],
    ['CERTIFICATE_SCORE_SCALE', 1_000],
    ['FILE_NAME_MAX', 56],
    ['SOUND_VOLUMES', [0.125, 0.45, 1]],
    ['BREAKPOINTS', { xs: 768, sm: 992, md: 1200, lg: 1920 }],
  ])('%s', (name, value) => {
    expect(constants[name]).toEqual(value);
  });
});
