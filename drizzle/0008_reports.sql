CREATE TABLE "report_activity" (
	"workspace_id" text COLLATE "C" NOT NULL,
	"grain" text NOT NULL,
	"bucket_at" timestamp (3) with time zone NOT NULL,
	"brand_id" text COLLATE "C" NOT NULL,
	"contacts_added" bigint DEFAULT 0 NOT NULL,
	"unsubscribes" bigint DEFAULT 0 NOT NULL,
	"campaigns_sent" bigint DEFAULT 0 NOT NULL,
	"opens" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_activity_workspace_id_grain_bucket_at_brand_id_pk" PRIMARY KEY("workspace_id","grain","bucket_at","brand_id")
);
--> statement-breakpoint
CREATE TABLE "report_brand_counters" (
	"brand_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"lists_total" bigint DEFAULT 0 NOT NULL,
	"list_memberships" bigint DEFAULT 0 NOT NULL,
	"topics_total" bigint DEFAULT 0 NOT NULL,
	"campaigns_total" bigint DEFAULT 0 NOT NULL,
	"campaigns_draft" bigint DEFAULT 0 NOT NULL,
	"campaigns_scheduled" bigint DEFAULT 0 NOT NULL,
	"campaigns_sending" bigint DEFAULT 0 NOT NULL,
	"campaigns_paused" bigint DEFAULT 0 NOT NULL,
	"campaigns_sent" bigint DEFAULT 0 NOT NULL,
	"campaigns_cancelled" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"campaigns_version" bigint DEFAULT 0 NOT NULL,
	"activity_version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_campaign_counters" (
	"campaign_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"brand_id" text COLLATE "C" NOT NULL,
	"recipients" bigint DEFAULT 0 NOT NULL,
	"queued" bigint DEFAULT 0 NOT NULL,
	"accepted" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"skipped" bigint DEFAULT 0 NOT NULL,
	"cancelled" bigint DEFAULT 0 NOT NULL,
	"delivered" bigint DEFAULT 0 NOT NULL,
	"bounced" bigint DEFAULT 0 NOT NULL,
	"complained" bigint DEFAULT 0 NOT NULL,
	"opened" bigint DEFAULT 0 NOT NULL,
	"clicked" bigint DEFAULT 0 NOT NULL,
	"unsubscribed" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_contact_statuses" (
	"contact_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_engagement_queue" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"campaign_id" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_workspace_counters" (
	"workspace_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"contacts_total" bigint DEFAULT 0 NOT NULL,
	"contacts_unsubscribed" bigint DEFAULT 0 NOT NULL,
	"contacts_bounced" bigint DEFAULT 0 NOT NULL,
	"contacts_complained" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"activity_version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_activity" ADD CONSTRAINT "report_activity_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_brand_counters" ADD CONSTRAINT "report_brand_counters_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_brand_counters" ADD CONSTRAINT "report_brand_counters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_campaign_counters" ADD CONSTRAINT "report_campaign_counters_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_workspace_counters" ADD CONSTRAINT "report_workspace_counters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_brand_counters_workspace_idx" ON "report_brand_counters" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "report_contact_statuses_workspace_idx" ON "report_contact_statuses" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "report_engagement_queue_campaign_idx" ON "report_engagement_queue" USING btree ("campaign_id");