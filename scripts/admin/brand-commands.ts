import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import { createBrand } from "@/lib/brands/create-brand";
import { updateBrand } from "@/lib/brands/update-brand";

import { opt, str, string, type AdminCommand } from "./admin-command";

/** Brands: the sender identity a workspace mails as, created, reviewed and edited. */
export const brandCommands: Record<string, AdminCommand> = {
  "brand:create": {
    summary: "--workspace ID --name N --legal-name N --postal-address A --website-url U --sender-email E",
    options: {
      workspace: string,
      name: string,
      "legal-name": string,
      "postal-address": string,
      "website-url": string,
      "sender-email": string,
    },
    required: ["workspace", "name", "legal-name", "postal-address", "website-url", "sender-email"],
    run: async (ctx, v) => {
      const { brandId } = await createBrand(ctx, systemActor("admin-cli", str(v, "workspace")), {
        name: str(v, "name"),
        legalName: str(v, "legal-name"),
        postalAddress: str(v, "postal-address"),
        websiteUrl: str(v, "website-url"),
        senderEmail: str(v, "sender-email"),
      });
      return { brand_id: brandId };
    },
  },
  "brand:approve": {
    summary: "--brand ID",
    options: { brand: string },
    required: ["brand"],
    run: async (ctx, v) => {
      const { brandId, reviewStatus } = await approveBrand(ctx, systemActor("admin-cli"), str(v, "brand"));
      return { brand_id: brandId, review_status: reviewStatus };
    },
  },
  "brand:update": {
    summary:
      "--brand ID [--name N] [--legal-name N] [--postal-address A] [--sender-email E] [--website-url U] [--logo-url U] [--primary-color #RRGGBB]   (an identity edit returns the brand to review and holds its sending)",
    options: {
      brand: string,
      name: string,
      "legal-name": string,
      "postal-address": string,
      "sender-email": string,
      "website-url": string,
      "logo-url": string,
      "primary-color": string,
    },
    required: ["brand"],
    run: async (ctx, v) => {
      const { brand } = await updateBrand(ctx, systemActor("admin-cli"), str(v, "brand"), {
        name: opt(v, "name"),
        legalName: opt(v, "legal-name"),
        postalAddress: opt(v, "postal-address"),
        senderEmail: opt(v, "sender-email"),
        websiteUrl: opt(v, "website-url"),
        logoUrl: opt(v, "logo-url"),
        primaryColor: opt(v, "primary-color"),
      });
      return { brand_id: brand.id, review_status: brand.reviewStatus, sending_held: brand.sendingHeldAt !== null };
    },
  },
};
