ALTER TABLE "billing_invoices" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "stripe_subscription_status" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "stripe_subscription_event_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "plan_lowered_at" timestamp (3) with time zone;