DROP INDEX "webhook_deliveries_claimed_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "delivery_lease_token" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "delivery_lease_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_until";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "generation";