/** Billing ladder lengths and trial limits (configuration; see DECISIONS.md). */
export const TRIAL_DAYS = 14;
export const TRIAL_SEND_ALLOWANCE = 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;
