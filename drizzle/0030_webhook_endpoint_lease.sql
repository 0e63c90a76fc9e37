-- Delivery runs hold a lease on the endpoint instead of claiming each delivery. An instance still running the
-- previous version fails its next claim or record once this has run; the batch it was posting stays pending and
-- is posted again by the new version (receivers de-duplicate by event id).
DROP INDEX "webhook_deliveries_claimed_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "delivery_lease_token" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "delivery_lease_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_until";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "generation";