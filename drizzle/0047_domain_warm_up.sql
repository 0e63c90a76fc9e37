CREATE TABLE "domain_warm_up_days" (
	"domain_id" text COLLATE "C" NOT NULL,
	"day" date NOT NULL,
	"stage" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "domain_warm_up_days_domain_id_day_pk" PRIMARY KEY("domain_id","day")
);
--> statement-breakpoint
ALTER TABLE "sending_domains" ADD COLUMN "warm_up" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "waiting_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "waiting_reason" text;--> statement-breakpoint
ALTER TABLE "domain_warm_up_days" ADD CONSTRAINT "domain_warm_up_days_domain_id_sending_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."sending_domains"("id") ON DELETE cascade ON UPDATE no action;