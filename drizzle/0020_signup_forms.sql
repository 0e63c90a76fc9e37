CREATE TABLE "signup_form_challenge_uses" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signup_form_submissions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"form_id" text COLLATE "C" NOT NULL,
	"subscription_ids" text[] NOT NULL,
	"submitted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signup_forms" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"brand_id" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"topic_ids" text[] NOT NULL,
	"api_key_id" text COLLATE "C" NOT NULL,
	"fields" jsonb NOT NULL,
	"texts" jsonb NOT NULL,
	"style" jsonb NOT NULL,
	"challenge" boolean DEFAULT false NOT NULL,
	"redirect_url" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signup_form_submissions" ADD CONSTRAINT "signup_form_submissions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_form_submissions" ADD CONSTRAINT "signup_form_submissions_form_id_signup_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."signup_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_forms" ADD CONSTRAINT "signup_forms_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_forms" ADD CONSTRAINT "signup_forms_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_forms" ADD CONSTRAINT "signup_forms_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_form_submissions_form_idx" ON "signup_form_submissions" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "signup_forms_workspace_idx" ON "signup_forms" USING btree ("workspace_id","id");