ALTER TABLE "webhook_deliveries" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "order_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "secret_rotated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "concurrency_key" text;--> statement-breakpoint
CREATE INDEX "workflow_runs_concurrency_idx" ON "workflow_runs" USING btree ("concurrency_key") WHERE "workflow_runs"."status" = 'pending' and "workflow_runs"."concurrency_key" is not null;