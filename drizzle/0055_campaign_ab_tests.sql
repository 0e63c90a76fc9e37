CREATE TABLE "campaign_ab_tests" (
	"campaign_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"dimension" text NOT NULL,
	"variants" jsonb NOT NULL,
	"test_percent" integer,
	"metric" text DEFAULT 'clicks' NOT NULL,
	"wait_minutes" integer DEFAULT 120 NOT NULL,
	"assigned_at" timestamp (3) with time zone,
	"test_sends" integer,
	"decide_at" timestamp (3) with time zone,
	"winner" smallint,
	"winner_picked_by" text,
	"winner_picked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "ab_variant" smallint;--> statement-breakpoint
ALTER TABLE "campaign_ab_tests" ADD CONSTRAINT "campaign_ab_tests_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;