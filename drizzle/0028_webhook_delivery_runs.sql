DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claimed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "delivery_wake" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_claimed_idx" ON "webhook_deliveries" USING btree ("endpoint_id","claimed_until") WHERE "webhook_deliveries"."claimed_until" is not null;--> statement-breakpoint
-- Deliveries are now made by one run per endpoint. The per-delivery runs still waiting are cancelled; the
-- deliveries they would have retried stay pending, and the sweep wakes their endpoints' runs.
UPDATE "workflow_runs" SET "status" = 'cancelled', "updated_at" = now() WHERE "status" = 'pending' AND "event"->>'name' = 'webhook/delivery.requested';
