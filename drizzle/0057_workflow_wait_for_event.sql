ALTER TABLE "workflow_runs" ADD COLUMN "wait_step" text;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "wait_event" text;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "wait_key" text;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "wait_match" jsonb;--> statement-breakpoint
CREATE INDEX "workflow_runs_wait_idx" ON "workflow_runs" USING btree ("wait_event","wait_key") WHERE "workflow_runs"."status" = 'pending' and "workflow_runs"."wait_step" is not null;