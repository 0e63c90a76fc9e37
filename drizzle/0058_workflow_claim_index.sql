DROP INDEX "workflow_runs_due_idx";--> statement-breakpoint
CREATE INDEX "workflow_runs_due_idx" ON "workflow_runs" USING btree ("status","wake_at","id");