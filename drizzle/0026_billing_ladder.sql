CREATE TABLE "billing_invoices" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"provider" text NOT NULL,
	"provider_invoice_id" text,
	"plan" text,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"period_end" timestamp (3) with time zone NOT NULL,
	"hosted_url" text,
	"paid_at" timestamp (3) with time zone,
	"failed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_notices" (
	"episode_id" text NOT NULL,
	"step" text NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"taken_at" timestamp (3) with time zone NOT NULL,
	"mailed" boolean NOT NULL,
	CONSTRAINT "billing_notices_episode_id_step_pk" PRIMARY KEY("episode_id","step")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "provider" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "ladder_episode_id" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "ladder_cause" text;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "ladder_starts_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "ladder_paused_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_billing" ADD COLUMN "data_deleted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_notices" ADD CONSTRAINT "billing_notices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_invoices_workspace_idx" ON "billing_invoices" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_invoices_provider_key" ON "billing_invoices" USING btree ("provider","provider_invoice_id");