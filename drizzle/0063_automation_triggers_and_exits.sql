ALTER TABLE "automations" ADD COLUMN "trigger_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "reentry_after_minutes" integer;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "exit_condition" jsonb;