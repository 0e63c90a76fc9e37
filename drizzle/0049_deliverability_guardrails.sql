CREATE TABLE "campaign_guardrails" (
	"campaign_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"hard_bounced" integer DEFAULT 0 NOT NULL,
	"pause_reason" text,
	"pause_scope" text,
	"paused_on" jsonb,
	"acknowledged" jsonb,
	"acknowledged_at" timestamp (3) with time zone,
	"acknowledged_by" text
);
--> statement-breakpoint
CREATE TABLE "deliverability_settings" (
	"workspace_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"complaint_warn_percent" double precision NOT NULL,
	"complaint_stop_percent" double precision NOT NULL,
	"hard_bounce_warn_percent" double precision NOT NULL,
	"hard_bounce_stop_percent" double precision NOT NULL,
	"minimum_delivered" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_guardrails" ADD CONSTRAINT "campaign_guardrails_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliverability_settings" ADD CONSTRAINT "deliverability_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;