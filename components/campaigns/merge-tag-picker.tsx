"use client";

import { Braces } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

// Exactly the namespaces the merge-tag rule accepts (lib/campaigns/merge-tags.ts), plus the workspace's attributes.
const CONTACT_TAGS = ["email", "first_name", "last_name"];
const BRAND_TAGS = ["name", "legal_name", "postal_address", "website_url"];

/** Inserts `{{namespace.name}}` where the cursor is, from the tags that exist. */
export function MergeTagPicker({ attributes, onPick, label = "Insert merge tag" }: { attributes: string[]; onPick: (tag: string) => void; label?: string }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          <Braces />
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
        <DropdownMenuLabel>Contact</DropdownMenuLabel>
        {[...CONTACT_TAGS, ...attributes].map((name) => (
          <DropdownMenuItem key={`contact.${name}`} onSelect={() => onPick(`{{contact.${name}}}`)}>
            <code>contact.{name}</code>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuLabel>Brand</DropdownMenuLabel>
        {BRAND_TAGS.map((name) => (
          <DropdownMenuItem key={`brand.${name}`} onSelect={() => onPick(`{{brand.${name}}}`)}>
            <code>brand.{name}</code>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
