CREATE TABLE "mailbox_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"source" text NOT NULL,
	"checked_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_paces" (
	"workspace_id" text COLLATE "C" NOT NULL,
	"provider" text NOT NULL,
	"rate_per_minute" integer,
	"tokens" real,
	"refilled_at" timestamp (3) with time zone,
	"slowdown" real DEFAULT 1 NOT NULL,
	"refused_at" timestamp (3) with time zone,
	"refusals" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_paces_workspace_id_provider_pk" PRIMARY KEY("workspace_id","provider")
);
--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "not_before" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "deferrals" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_paces" ADD CONSTRAINT "provider_paces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;