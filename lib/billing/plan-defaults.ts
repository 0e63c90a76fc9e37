import { env, type Env } from "@/lib/env";

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

/** The defaults of docs/readings.md ("The ladder"): a week overdue, two months read-only, a month of reminders, weekly. */
export function ladderLengths(config: Env = env()): LadderLengths {
  return {
    overdueDays: config.BILLING_OVERDUE_DAYS,
    readOnlyDays: config.BILLING_READ_ONLY_DAYS,
    deletionNoticeDays: config.BILLING_DELETION_NOTICE_DAYS,
    reminderEveryDays: config.BILLING_REMINDER_EVERY_DAYS,
  };
}
