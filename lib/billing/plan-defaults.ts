/** Billing ladder lengths and trial limits (configuration; see docs/billing.md). */
export const TRIAL_DAYS = 14;
export const TRIAL_SEND_ALLOWANCE = 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface LadderLengths {
  /** Collection attempts before the workspace becomes read-only. */
  overdueDays: number;
  /** Read-only, data intact, before deletion is scheduled. */
  readOnlyDays: number;
  /** From the dated deletion notice to the deletion. */
  deletionNoticeDays: number;
  /** Between reminders while deletion is scheduled. */
  reminderEveryDays: number;
}

const positive = (name: string, fallback: number, env: Partial<Record<string, string>>) => {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name} must be a positive number of days, got "${raw}"`);
  return value;
};

/** The defaults of DECISIONS.md: a week overdue, two months read-only, a month of reminders, weekly. */
export function ladderLengths(env: Partial<Record<string, string>> = process.env): LadderLengths {
  return {
    overdueDays: positive("BILLING_OVERDUE_DAYS", 7, env),
    readOnlyDays: positive("BILLING_READ_ONLY_DAYS", 60, env),
    deletionNoticeDays: positive("BILLING_DELETION_NOTICE_DAYS", 30, env),
    reminderEveryDays: positive("BILLING_REMINDER_EVERY_DAYS", 7, env),
  };
}
